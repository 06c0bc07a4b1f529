#include "core/matrix.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace flux {
namespace {

TEST(MatrixTest, BorrowedReadsTheLendersMemoryInPlace) {
  const std::vector<double> lender = {0, 1, 2, 3};
  const Matrix m = Matrix::borrow(lender.data(), 2);
  EXPECT_TRUE(m.borrowed());
  EXPECT_EQ(m.row(0), lender.data());
  EXPECT_EQ(m.data().data(), lender.data());
  EXPECT_EQ(m(1, 0), 2);
  EXPECT_EQ(m.row_sums(), (std::vector<double>{1, 5}));
  EXPECT_EQ(m.max_line_sum(), 5);
  EXPECT_EQ(m.nonzeros(), 3);
  Matrix owned(2);
  owned(0, 1) = 1, owned(1, 0) = 2, owned(1, 1) = 3;
  EXPECT_EQ(m, owned);
}

TEST(MatrixTest, MovingKeepsTheLoanCopyingOwns) {
  std::vector<double> lender = {0, 1, 2, 3};
  Matrix m = Matrix::borrow(lender.data(), 2);
  const Matrix moved = std::move(m);  // const: reads only (a write access would take a copy)
  EXPECT_TRUE(moved.borrowed());
  EXPECT_EQ(moved.row(0), std::as_const(lender).data());
  const Matrix copy = moved;
  EXPECT_FALSE(copy.borrowed());
  EXPECT_NE(copy.row(0), std::as_const(lender).data());
  EXPECT_EQ(copy, moved);
  lender[0] = 9;  // the loan sees the lender, the copy does not
  EXPECT_EQ(moved(0, 0), 9);
  EXPECT_EQ(copy(0, 0), 0);
}

TEST(MatrixTest, WritingToABorrowedMatrixNeverWritesTheLender) {
  const std::vector<double> lender = {0, 1, 2, 3};
  Matrix m = Matrix::borrow(lender.data(), 2);
  m(0, 0) = 7;
  EXPECT_FALSE(m.borrowed());
  EXPECT_EQ(m(0, 0), 7);
  EXPECT_EQ(m(1, 1), 3);
  EXPECT_EQ(lender[0], 0);
  Matrix r = Matrix::borrow(lender.data(), 2);
  r.row(1)[0] = 5;
  EXPECT_EQ(lender[2], 2);
  EXPECT_EQ(r.scaled(2)(1, 0), 10);
}

}  // namespace
}  // namespace flux
