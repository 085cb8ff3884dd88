// Reading `!$f2s` lines from raw source text, without Flang.
#include "frontend/Directives.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(Directives, FindsOnlyDirectiveCommentLines) {
  auto found = find_directives("x = 1 ! !$f2s stencil\n"
                               "!$f2sfoo\n"
                               "   !$F2S stencil\r\n"
                               "\t!$f2s   STENCIL name(Abc)\n",
                               "f.f90");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].loc.str(), "f.f90:3:4");
  EXPECT_FALSE(found[0].name);
  EXPECT_TRUE(found[0].tune_size.empty());
  EXPECT_EQ(found[1].loc.str(), "f.f90:4:2");
  EXPECT_EQ(found[1].name, "abc");
  EXPECT_EQ(found[1].name_loc.str(), "f.f90:4:18");
}

TEST(Directives, ClausesInAnyOrderWithCommas) {
  auto found = find_directives("!$f2s stencil, tune_size(8,16, 32) ,name( k1 ) ! why\n", "f.f90");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].tune_size, (std::vector<int64_t>{8, 16, 32}));
  EXPECT_EQ(found[0].tune_size_loc.str(), "f.f90:1:16");
  EXPECT_EQ(found[0].name, "k1");
}

TEST(Directives, FixedFormSentinels) {
  const std::string text = "c$f2s stencil\n"
                           "C$F2S STENCIL NAME(A)\n"
                           "*$f2s stencil\n"
                           "     !$f2s stencil\n" // column 6: a continuation, not a comment
                           "   !$f2s stencil\n"
                           " c$f2s stencil\n"; // not column 1
  std::vector<Sentinel> at = find_sentinels(text, true);
  ASSERT_EQ(at.size(), 4u);
  EXPECT_EQ(at[0].line, 1);
  EXPECT_EQ(at[1].line, 2);
  EXPECT_EQ(at[2].line, 3);
  EXPECT_EQ(at[3].line, 5);
  EXPECT_EQ(at[3].column, 3u);
  EXPECT_EQ(read_directive(text, at[1], "f.f").name, "a");
  EXPECT_EQ(read_directive(text, at[3], "f.f").loc.str(), "f.f:5:4");
  // In free form only `!$f2s` is a directive.
  ASSERT_EQ(find_sentinels(text, false).size(), 2u);
  EXPECT_EQ(find_directives(text, "f.f", true).size(), 4u);
}

std::string error_of(const std::string &text) {
  try {
    find_directives(text, "f.f90");
  } catch (const UserError &e) {
    return e.what();
  }
  return "no error";
}

TEST(Directives, Errors) {
  EXPECT_EQ(error_of("!$f2s\n"), "f.f90:1:6: error: Expected STENCIL after '!$f2s'");
  EXPECT_EQ(error_of("  !$f2s kernel\n"),
            "f.f90:1:9: error: 'kernel' is not a '!$f2s' directive; expected STENCIL");
  EXPECT_EQ(error_of("!$f2s stencil tile(4)\n"),
            "f.f90:1:15: error: Unknown clause 'tile' in a '!$f2s stencil' directive; expected "
            "NAME, TUNE_SIZE or TIMESTEPS");
  EXPECT_EQ(error_of("!$f2s stencil name(a) name(b)\n"),
            "f.f90:1:23: error: The NAME clause appears twice in a '!$f2s stencil' directive");
  EXPECT_EQ(error_of("!$f2s stencil name a\n"),
            "f.f90:1:20: error: Expected '(' in the NAME clause of a '!$f2s stencil' directive");
  EXPECT_EQ(error_of("!$f2s stencil name(1a)\n"),
            "f.f90:1:20: error: The NAME clause of a '!$f2s stencil' directive needs an "
            "identifier");
  EXPECT_EQ(error_of("!$f2s stencil tune_size(4, -2)\n"),
            "f.f90:1:28: error: The TUNE_SIZE clause of a '!$f2s stencil' directive needs "
            "positive integers");
  EXPECT_EQ(error_of("!$f2s stencil tune_size(4, 2\n"),
            "f.f90:1:29: error: Expected ')' in the TUNE_SIZE clause of a '!$f2s stencil' "
            "directive");
  EXPECT_EQ(error_of("!$f2s stencil =\n"),
            "f.f90:1:15: error: Unexpected '=' in a '!$f2s stencil' directive; expected a "
            "clause");
}

TEST(Directives, SeveralTuneSizesSeparatedBySemicolons) {
  auto found = find_directives(
      "!$f2s stencil tune_size(64,64,64; 256, 256,256 ;512,512,512) name(lap)\n", "f.f90");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].tune_sizes,
            (std::vector<std::vector<int64_t>>{{64, 64, 64}, {256, 256, 256}, {512, 512, 512}}));
  EXPECT_EQ(found[0].tune_size, (std::vector<int64_t>{64, 64, 64}));
  EXPECT_EQ(found[0].tune_size_loc.str(), "f.f90:1:15");
  ASSERT_EQ(found[0].tune_sizes_loc.size(), 3u);
  EXPECT_EQ(found[0].tune_sizes_loc[1].str(), "f.f90:1:35");
  EXPECT_EQ(found[0].tune_sizes_loc[2].str(), "f.f90:1:49");
  EXPECT_EQ(found[0].name, "lap");
  // One size is still one size.
  EXPECT_EQ(find_directives("!$f2s stencil tune_size(8, 4)\n", "f.f90")[0].tune_sizes,
            (std::vector<std::vector<int64_t>>{{8, 4}}));
}

TEST(Directives, SeveralTuneSizesErrors) {
  EXPECT_EQ(error_of("!$f2s stencil tune_size(8, 8; 16, 16; 8, 8)\n"),
            "f.f90:1:39: error: Size 3 of the TUNE_SIZE clause repeats size 1; give each size "
            "once");
  EXPECT_EQ(error_of("!$f2s stencil tune_size(8, 8; 16, 16, 16)\n"),
            "f.f90:1:31: error: Size 2 of the TUNE_SIZE clause has 3 values where size 1 has 2; "
            "give every size one value per loop of the nest");
  EXPECT_EQ(error_of("!$f2s stencil tune_size(8, 4; 4, 8)\n"),
            "f.f90:1:31: error: Size 2 of the TUNE_SIZE clause has as many points as size 1, "
            "and the library tells sizes apart by their working set; give one of them another "
            "number of points");
  EXPECT_EQ(error_of("!$f2s stencil tune_size(8, 8; 0, 16)\n"),
            "f.f90:1:31: error: The TUNE_SIZE clause of a '!$f2s stencil' directive needs "
            "positive integers");
  EXPECT_EQ(error_of("!$f2s stencil tune_size(8, 8;)\n"),
            "f.f90:1:30: error: The TUNE_SIZE clause of a '!$f2s stencil' directive needs "
            "positive integers");
  EXPECT_EQ(error_of("!$f2s stencil tune_size(8, 8; 16, 16\n"),
            "f.f90:1:37: error: Expected ')' in the TUNE_SIZE clause of a '!$f2s stencil' "
            "directive");
}

} // namespace
} // namespace f2s
