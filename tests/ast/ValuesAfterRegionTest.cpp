// ast/ValuesAfterRegion's find_values_after_region: the facts the front end
// records of what a procedure does outside a region with the kernel's private
// variables (Kernel::outside_uses), built here by hand, and the refusals the
// pass makes of them.
#include "ast/ValuesAfterRegion.h"
#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

Variable grid(const std::string &name) {
  return Variable{name, Type::Float64, {Dim{IntImm::make(1), Var::make("n", Type::Int32)}}};
}

/// !$f2s stencil (line 4) / do i = 1, n / t = a(i) * 2 (7:7) / b(i) = t + 1,
/// in input.f90.
Kernel nest() {
  Kernel k;
  k.name = "s_1";
  k.loc = SourceLoc{"input.f90", 4, 3};
  k.args = {grid("a"), grid("b"), Variable{"n", Type::Int32, {}}};
  k.temps = {Variable{"t", Type::Float64, {}}};
  Expr t = Var::make("t", Type::Float64);
  k.body = For::make(
      "i", IntImm::make(1), Var::make("n", Type::Int32), IntImm::make(1), LoopExec::Serial,
      Block::make(
          {Assign::make("t",
                        Binary::make(BinaryOp::Mul, GridRef::make("a", {Index{"i"}}, Type::Float64),
                                     FloatImm::make(2.0, Type::Float64)),
                        SourceLoc{"input.f90", 7, 7}),
           Store::make("b", {Index{"i"}},
                       Binary::make(BinaryOp::Add, t, FloatImm::make(1.0, Type::Float64)))}));
  return k;
}

TEST(ValuesAfterRegion, TheNestAsBuilt) {
  EXPECT_EQ(print_stmt(nest().body), "for i = 1, n {\n"
                                     "  t = a(i)*2.0d0\n"
                                     "  b(i) = t + 1.0d0\n"
                                     "}\n");
}

TEST(ValuesAfterRegion, ATemporaryNothingOutsideSeesIsKept) {
  EXPECT_TRUE(find_values_after_region(nest()).empty());
}

TEST(ValuesAfterRegion, AReadAfterTheRegionIsRefusedAtTheFirstAssignment) {
  Kernel k = nest();
  k.outside_uses = {OutsideUse{"t", "", SourceLoc{"input.f90", 11, 16}, false, std::nullopt}};
  std::vector<Diagnostic> ds = find_values_after_region(k);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].loc.str(), "input.f90:7:7");
  EXPECT_EQ(ds[0].message, "'t' is assigned in the '!$f2s stencil' region and read after it "
                           "(line 11, column 16), but the library keeps it private to each point");
}

TEST(ValuesAfterRegion, AReadInAnotherFileNamesTheWholePosition) {
  Kernel k = nest();
  k.outside_uses = {OutsideUse{"t", "", SourceLoc{"other.f90", 3, 9}, false, std::nullopt}};
  std::vector<Diagnostic> ds = find_values_after_region(k);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].message, "'t' is assigned in the '!$f2s stencil' region and read after it "
                           "(other.f90:3:9), but the library keeps it private to each point");
}

TEST(ValuesAfterRegion, ASavedReadBeforeTheRegionIsReadInTheNextCall) {
  Kernel k = nest();
  k.outside_uses = {OutsideUse{"t", "", SourceLoc{"input.f90", 3, 8}, true, std::nullopt}};
  std::vector<Diagnostic> ds = find_values_after_region(k);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].message, "'t' is assigned in the '!$f2s stencil' region and read in the next "
                           "call, as it is SAVEd (line 3, column 8), but the library keeps it "
                           "private to each point");
}

TEST(ValuesAfterRegion, AVariableTheCallerSeesIsRefusedWhetherReadOrNot) {
  Kernel k = nest();
  k.outside_uses = {OutsideUse{"t", "a dummy argument", std::nullopt, false, std::nullopt}};
  std::vector<Diagnostic> ds = find_values_after_region(k);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].loc.str(), "input.f90:7:7");
  EXPECT_EQ(ds[0].message,
            "'t' is assigned in the '!$f2s stencil' region and is a dummy argument, so its value "
            "after the region can be read, but the library keeps it private to each point; use a "
            "local variable for it if nothing after the region needs its value");
}

TEST(ValuesAfterRegion, AWorkArrayOfThePointIsRefusedAtItsPosition) {
  Kernel k = nest();
  k.point_arrays = {PointArray{"tv", SourceLoc{"input.f90", 6, 7}}};
  k.outside_uses = {OutsideUse{"tv", "", SourceLoc{"input.f90", 12, 5}, false, std::nullopt}};
  std::vector<Diagnostic> ds = find_values_after_region(k);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].loc.str(), "input.f90:6:7");
  EXPECT_EQ(ds[0].message, "Work array 'tv' of the point is assigned in the '!$f2s stencil' "
                           "region and read after it (line 12, column 5), but the library keeps "
                           "it private to each point");
}

TEST(ValuesAfterRegion, ALineBufferUsedElsewhereIsRefusedAtTheDirective) {
  Kernel k = nest();
  k.line_buffers = {"row"};
  k.outside_uses = {OutsideUse{"row", "", std::nullopt, false, SourceLoc{"input.f90", 14, 3}}};
  std::vector<Diagnostic> ds = find_values_after_region(k);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].loc.str(), "input.f90:4:3");
  EXPECT_EQ(ds[0].message,
            "Line buffer 'row' of the '!$f2s stencil' region is also used at line 14, column 3, "
            "but the library computes its values where the region reads them and never fills "
            "it; give the region a buffer of its own");
}

TEST(ValuesAfterRegion, FactsOfNamesTheKernelDoesNotKeepAreIgnored) {
  Kernel k = nest();
  k.outside_uses = {OutsideUse{"s", "in COMMON", SourceLoc{"input.f90", 11, 3}, false,
                               SourceLoc{"input.f90", 11, 3}}};
  EXPECT_TRUE(find_values_after_region(k).empty());
}

TEST(ValuesAfterRegion, ACarriedTemporaryIsLeftToTheDependenceAnalysis) {
  // do i: b(i) = t; t = a(i): each point reads the t of the one before.
  Kernel k = nest();
  k.body = For::make("i", IntImm::make(1), Var::make("n", Type::Int32), IntImm::make(1),
                     LoopExec::Serial,
                     Block::make({Store::make("b", {Index{"i"}}, Var::make("t", Type::Float64)),
                                  Assign::make("t", GridRef::make("a", {Index{"i"}}, Type::Float64),
                                               SourceLoc{"input.f90", 8, 7})}));
  k.outside_uses = {OutsideUse{"t", "", SourceLoc{"input.f90", 11, 16}, false, std::nullopt}};
  EXPECT_TRUE(find_values_after_region(k).empty());
}

} // namespace
} // namespace f2s
