// canonicalize/FoldConstants: constant subexpressions folded to the bits
// gfortran folds them to. The expected values were printed with `z8.8` and
// `z16.16` by a program compiled with `gfortran -O0` (gfortran 12), which
// folds these statements while it compiles; the comments give the value the
// same expression gets when it is computed at run time instead, where it
// differs, to show what the folding is for.
#include "canonicalize/FoldConstants.h"
#include "ast/IRPrinter.h"
#include "tests/canonicalize/IRBuilders.h"

#include <gtest/gtest.h>

#include <cstring>

namespace f2s {
namespace {

using namespace irb;

/// The bits of the REAL(4) constant `e` folds to; 0xdeadbeef when it did
/// not fold to a constant.
uint32_t bits4(const Expr &e) {
  // `as` points into its argument: the folded node must outlive `f`.
  Expr folded = fold_constants(e);
  const auto *f = as<FloatImm>(folded);
  if (!f || f->type != Type::Float32)
    return 0xdeadbeef;
  float v = static_cast<float>(f->value);
  uint32_t u;
  std::memcpy(&u, &v, 4);
  return u;
}
uint64_t bits8(const Expr &e) {
  // `as` points into its argument: the folded node must outlive `f`.
  Expr folded = fold_constants(e);
  const auto *f = as<FloatImm>(folded);
  if (!f || f->type != Type::Float64)
    return 0xdeadbeef;
  uint64_t u;
  std::memcpy(&u, &f->value, 8);
  return u;
}

TEST(FoldConstants, TranscendentalsAndPowersRoundAsGfortranFoldsThem) {
  // log(0.1 + abs(0.0))**3: computed at run time, logf(0.1f) cubed as
  // l*l*l, it is C1435444 (fuzz seed 120701, whose CUDA emulation was not
  // folded by g++ 13).
  EXPECT_EQ(
      bits4(bin(BinaryOp::Pow,
                call(Intrinsic::Log, {bin(BinaryOp::Add, r4(0.1f), call(Intrinsic::Abs, {r4(0)}))}),
                i32(3))),
      0xC1435443u);
  EXPECT_EQ(
      bits4(bin(BinaryOp::Mul, call(Intrinsic::Exp, {r4(1.5)}), call(Intrinsic::Sqrt, {r4(2)}))),
      0x40CAD16Eu);
  EXPECT_EQ(
      bits4(bin(BinaryOp::Add, call(Intrinsic::Sin, {r4(0.3f)}), call(Intrinsic::Cos, {r4(0.2f)}))),
      0x3FA3466Eu);
  EXPECT_EQ(bits4(bin(BinaryOp::Pow, r4(1.1f), i32(-3))), 0x3F40562Au);
  EXPECT_EQ(bits8(bin(BinaryOp::Pow, call(Intrinsic::Log, {r8(0.1)}), i32(3))),
            0xC0286A885ACD42F5u);
  EXPECT_EQ(bits8(bin(BinaryOp::Add,
                      bin(BinaryOp::Mul, call(Intrinsic::Sin, {r8(0.3)}),
                          call(Intrinsic::Cos, {r8(0.2)})),
                      call(Intrinsic::Exp, {r8(0.7)}))),
            0x40026D53A3996913u);
  EXPECT_EQ(bits8(bin(BinaryOp::Pow, r8(1.1), i32(-3))), 0x3FE80AC5565BEFD6u);
}

TEST(FoldConstants, TheOtherIntrinsicsAndRealPowersRoundAsGfortranFoldsThem) {
  EXPECT_EQ(bits4(add(call(Intrinsic::Tanh, {r4(0.3f)}), call(Intrinsic::Atan2, {r4(0.5), r4(2)}))),
            0x3F094A63u);
  EXPECT_EQ(bits4(Call::convert(Intrinsic::Real, r8(0.1), Type::Float32)), 0x3DCCCCCDu);
  EXPECT_EQ(bits4(bin(BinaryOp::Pow, r4(2), r4(1.5))), 0x403504F3u);
  EXPECT_EQ(bits4(add(add(call(Intrinsic::Log10, {r4(7)}), call(Intrinsic::Asin, {r4(0.3f)})),
                      call(Intrinsic::Acos, {r4(0.3f)}))),
            0x401A9E03u);
  EXPECT_EQ(bits8(add(add(bin(BinaryOp::Mul, call(Intrinsic::Tanh, {r8(0.3)}),
                              call(Intrinsic::Sinh, {r8(0.7)})),
                          call(Intrinsic::Cosh, {r8(0.2)})),
                      call(Intrinsic::Tan, {r8(1.2)}))),
            0x400E8170C5C173E6u);
  EXPECT_EQ(
      bits8(add(call(Intrinsic::Atan, {r8(0.4)}), call(Intrinsic::Atan2, {r8(-0.5), r8(-2)}))),
      0xC00420FD07447552u);
  EXPECT_EQ(bits8(bin(BinaryOp::Pow, r8(2), r8(0.5))), 0x3FF6A09E667F3BCDu);
  EXPECT_EQ(bits8(bin(BinaryOp::Pow, r8(1.7), r4(2.3f))), 0x400B1C0C3B5AA36Au);
  EXPECT_EQ(
      bits8(add(Call::convert(Intrinsic::Real, i32(16777217), Type::Float64),
                bin(BinaryOp::Div, Call::convert(Intrinsic::Real, i32(3), Type::Float64), i32(7)))),
      0x4170000016DB6DB7u);
  EXPECT_EQ(bits8(add(call(Intrinsic::Aint, {r8(-2.5)}),
                      bin(BinaryOp::Mul, call(Intrinsic::Anint, {r8(-2.5)}), i32(10)))),
            0xC040000000000000u);
  auto value = [](const Expr &e) {
    Expr folded = fold_constants(e);
    const auto *i = as<IntImm>(folded);
    return i ? i->value : -999999;
  };
  EXPECT_EQ(value(bin(BinaryOp::Add, Call::convert(Intrinsic::Nint, r8(2.5), Type::Int32),
                      bin(BinaryOp::Mul, i32(10),
                          Call::convert(Intrinsic::Nint, r4(-2.5), Type::Int32)))),
            -27);
  EXPECT_EQ(value(Call::convert(Intrinsic::Int, r8(-3.7), Type::Int32)), -3);
  EXPECT_EQ(value(Call::convert(Intrinsic::Floor, r8(-3.2), Type::Int32)), -4);
  EXPECT_EQ(value(Call::convert(Intrinsic::Ceiling, r8(-3.7), Type::Int32)), -3);
  EXPECT_EQ(value(Call::convert(Intrinsic::Nint, r4(1.7e9f), Type::Int32)), 1700000000);
  // Out of INTEGER's range, and outside the domain of ASIN: not folded.
  EXPECT_EQ(value(Call::convert(Intrinsic::Nint, r8(3e9), Type::Int32)), -999999);
  EXPECT_EQ(bits8(call(Intrinsic::Asin, {r8(1.5)})), 0xdeadbeefu);
  EXPECT_EQ(bits8(bin(BinaryOp::Pow, r8(-2), r8(0.5))), 0xdeadbeefu);
}

TEST(FoldConstants, MixedKindsConvertAsFortranConverts) {
  // 0.1 + 1d0: the REAL(4) literal widens exactly, then one REAL(8) sum.
  EXPECT_EQ(bits8(bin(BinaryOp::Add, r4(0.1f), r8(1))), 0x3FF199999A000000u);
  // 16777217 * 1.0: the INTEGER rounds to REAL(4) first.
  EXPECT_EQ(bits4(bin(BinaryOp::Mul, i32(16777217), r4(1))), 0x4B800000u);
  // mod(7.5, 2.0) + sign(1.5, -2.0) = 1.5 - 1.5
  EXPECT_EQ(bits4(bin(BinaryOp::Add, call(Intrinsic::Mod, {r4(7.5), r4(2)}),
                      call(Intrinsic::Sign, {r4(1.5), r4(-2)}))),
            0x00000000u);
}

TEST(FoldConstants, IntegersFoldExactlyAndTruncateAsFortranDoes) {
  auto value = [](const Expr &e) {
    Expr folded = fold_constants(e);
    const auto *i = as<IntImm>(folded);
    return i ? i->value : -999999;
  };
  EXPECT_EQ(value(bin(BinaryOp::Div, i32(-7), i32(2))), -3);
  EXPECT_EQ(value(call(Intrinsic::Mod, {i32(-7), i32(3)})), -1);
  EXPECT_EQ(value(call(Intrinsic::Sign, {i32(4), i32(-1)})), -4);
  EXPECT_EQ(value(call(Intrinsic::Max, {i32(4), i32(9), i32(-1)})), 9);
  EXPECT_EQ(value(bin(BinaryOp::Pow, i32(2), i32(-1))), 0);
  EXPECT_EQ(value(bin(BinaryOp::Pow, i32(-1), i32(-3))), -1);
}

TEST(FoldConstants, WhatGfortranWouldNotFoldTheSameStaysAsWritten) {
  auto stays = [](const Expr &e) { return print_expr(fold_constants(e)) == print_expr(e); };
  EXPECT_TRUE(stays(bin(BinaryOp::Div, r8(1), r8(0))));           // division by zero
  EXPECT_TRUE(stays(bin(BinaryOp::Div, i32(1), i32(0))));         // the same in INTEGER
  EXPECT_TRUE(stays(bin(BinaryOp::Mul, i32(65536), i32(65536)))); // INTEGER overflow
  EXPECT_TRUE(stays(call(Intrinsic::Log, {r8(-1)})));             // NaN
  EXPECT_TRUE(stays(call(Intrinsic::Sqrt, {r4(-1)})));            // NaN
  EXPECT_TRUE(stays(bin(BinaryOp::Pow, r4(10), i32(39))));        // overflows REAL(4)
  EXPECT_TRUE(stays(bin(BinaryOp::Mul, r4(1e-30f), r4(1e-10f)))); // subnormal
  EXPECT_TRUE(stays(call(Intrinsic::Sign, {r8(1), r8(-0.0)})));   // -fno-sign-zero decides
  EXPECT_TRUE(stays(call(Intrinsic::Max, {r8(0.0), r8(-0.0)})));  // the processor decides
  EXPECT_TRUE(stays(call(Intrinsic::Mod, {r8(1), r8(0)})));       // gfortran refuses it
}

TEST(FoldConstants, OnlyTheConstantSubtreesOfAnExpressionFold) {
  Expr x = Var::make("x", Type::Float32);
  Expr u = GridRef::make("u", {{"i", 1, 0}}, Type::Float32);
  // x + 0.5*2.0 folds its right operand; (x + 0.5) + 2.0 nothing, as
  // Fortran's left-to-right sum keeps x in both additions.
  EXPECT_EQ(print_expr(fold_constants(bin(BinaryOp::Add, x, bin(BinaryOp::Mul, r4(0.5), r4(2))))),
            "x + 1.0");
  Expr left = bin(BinaryOp::Add, bin(BinaryOp::Add, x, r4(0.5)), r4(2));
  EXPECT_EQ(fold_constants(left), left);
  // The branches of a MERGE and the arguments of a call fold on their own.
  Expr sel = Select::make(bin(BinaryOp::Gt, u, r4(0)), call(Intrinsic::Sqrt, {r4(4)}),
                          call(Intrinsic::Max, {u, bin(BinaryOp::Sub, i32(3), i32(1))}));
  EXPECT_EQ(print_expr(fold_constants(sel)), "merge(2.0, max(u(i), 2), u(i) > 0.0)");
}

TEST(FoldConstants, FoldsEveryExpressionOfAStatement) {
  Stmt s =
      For::make("i", bin(BinaryOp::Add, i32(1), i32(1)), Var::make("n", Type::Int32), i32(1),
                LoopExec::Serial,
                Store::make("u", {{"i", 1, 0}},
                            bin(BinaryOp::Mul, GridRef::make("v", {{"i", 1, 0}}, Type::Float64),
                                bin(BinaryOp::Pow, r8(0.5), i32(2)))));
  EXPECT_EQ(print_stmt(fold_constants(s)), "for i = 2, n {\n"
                                           "  u(i) = v(i)*0.25d0\n"
                                           "}\n");
}

} // namespace
} // namespace f2s
