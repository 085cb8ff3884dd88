// Array indexing: the kernel attribute that makes the printers address grid
// elements through row pointers (the C it gives is in tests/codegen).
#include "transforms/ArrayIndexing.h"
#include "ast/IRPrinter.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(ArrayIndexing, SelectsRowPointersOrFullIndices) {
  Kernel k = test::example_kernel("laplacian");
  EXPECT_EQ(k.indexing, Indexing::Full);
  Kernel rows = choose_array_indexing(k, {1});
  EXPECT_EQ(rows.indexing, Indexing::RowPointers);
  std::string before = print_kernel(k), after = print_kernel(rows);
  EXPECT_EQ(before.find("indexing"), std::string::npos);
  // The attribute is printed before the body, which is shared unchanged.
  EXPECT_EQ(after.substr(0, after.find("  for ")),
            before.substr(0, before.find("  for ")) + "  indexing row_pointers\n");
  EXPECT_EQ(rows.body, k.body);
  EXPECT_EQ(choose_array_indexing(rows, {0}).indexing, Indexing::Full);
  EXPECT_THROW(choose_array_indexing(k, {2}), std::invalid_argument);
}

} // namespace
} // namespace f2s
