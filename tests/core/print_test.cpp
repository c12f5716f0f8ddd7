// Printing: LibTorch's layout and number formats (integers, fixed point, common scale,
// scientific), type lines, 0-dim/empty/bool/16-bit tensors, and PyTorch-style summaries.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "accel/accel.h"

namespace accel {
namespace {

std::string printed(const Tensor& t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

TEST(Print, IntegerValuedMatrix) {
  EXPECT_EQ(printed(ones({2, 3})), " 1  1  1\n 1  1  1\n[ CPUFloatType{2,3} ]");
}

TEST(Print, FractionsInAlignedColumns) {
  EXPECT_EQ(printed(arange(6, kFloat32).view({2, 3}) / 3),
            " 0.0000  0.3333  0.6667\n 1.0000  1.3333  1.6667\n[ CPUFloatType{2,3} ]");
  EXPECT_EQ(printed(tensor({-1.25, 3.0, 100.5}).view({1, 3})),
            "  -1.2500    3.0000  100.5000\n[ CPUDoubleType{1,3} ]");
  EXPECT_EQ(printed(tensor({0.5, -0.25})), " 0.5000\n-0.2500\n[ CPUDoubleType{2} ]");
}

TEST(Print, VectorsOneValuePerLine) {
  EXPECT_EQ(printed(arange(4)), " 0\n 1\n 2\n 3\n[ CPULongType{4} ]");
  EXPECT_EQ(printed(tensor({-123456, 7})), "-123456\n      7\n[ CPULongType{2} ]");
  EXPECT_EQ(printed(tensor({1234567, 2})), " 1234567\n       2\n[ CPULongType{2} ]");
}

TEST(Print, CommonScaleAndScientific) {
  EXPECT_EQ(printed(tensor({123456.5, 234567.25})),
            "100000 *\n 1.2346\n 2.3457\n[ CPUDoubleType{2} ]");
  EXPECT_EQ(printed(tensor({0.05, 0.01}).view({1, 2})),
            "0.01 *\n 5.0000  1.0000\n[ CPUDoubleType{1,2} ]");
  EXPECT_EQ(printed(tensor({1e5, 1.0, 2.5})),
            " 1.0000e+05\n 1.0000e+00\n 2.5000e+00\n[ CPUDoubleType{3} ]");
  EXPECT_EQ(printed(tensor({1.0e10, 2.0})), " 1.0000e+10\n 2.0000e+00\n[ CPUDoubleType{2} ]");
}

TEST(Print, NonFiniteValues) {
  EXPECT_EQ(printed(tensor({1.0, std::nan(""), INFINITY, -INFINITY})),
            "   1\n nan\n inf\n-inf\n[ CPUDoubleType{4} ]");
}

TEST(Print, ZeroDimAndEmpty) {
  EXPECT_EQ(printed(scalar_tensor(3.5, kFloat32)), "3.5\n[ CPUFloatType{} ]");
  EXPECT_EQ(printed(scalar_tensor(3, kInt64)), "3\n[ CPULongType{} ]");
  EXPECT_EQ(printed(empty({0})), "[ CPUFloatType{0} ]");
  EXPECT_EQ(printed(empty({2, 0})), "[ CPUFloatType{2,0} ]");
  EXPECT_EQ(printed(Tensor()), "[ Tensor (undefined) ]");
}

TEST(Print, EveryDtypeNamesItsType) {
  EXPECT_EQ(printed(tensor({false, true})), " 0\n 1\n[ CPUBoolType{2} ]");
  EXPECT_EQ(printed(full({2}, 1.5, kFloat16)), " 1.5000\n 1.5000\n[ CPUHalfType{2} ]");
  EXPECT_EQ(printed(full({2}, 1.5, kBFloat16)), " 1.5000\n 1.5000\n[ CPUBFloat16Type{2} ]");
  EXPECT_EQ(printed(ones({2}, kUInt8)), " 1\n 1\n[ CPUByteType{2} ]");
  EXPECT_EQ(printed(ones({2}, kInt32)), " 1\n 1\n[ CPUIntType{2} ]");
  EXPECT_EQ(ones({2, 3}).toString(), "CPUFloatType{2,3}");
  EXPECT_EQ(scalar_tensor(1.0, kFloat64).toString(), "CPUDoubleType{}");
}

TEST(Print, HigherDimsAsLabelledMatrices) {
  EXPECT_EQ(printed(arange(12).view({2, 2, 3})),
            "(1,.,.) = \n  0   1   2\n  3   4   5\n\n"
            "(2,.,.) = \n  6   7   8\n  9  10  11\n"
            "[ CPULongType{2,2,3} ]");
  EXPECT_EQ(printed(arange(8).view({2, 1, 2, 2})),
            "(1,1,.,.) = \n 0  1\n 2  3\n\n(2,1,.,.) = \n 4  5\n 6  7\n[ CPULongType{2,1,2,2} ]");
}

TEST(Print, NonContiguousAndGradTensors) {
  EXPECT_EQ(printed(arange(6).view({2, 3}).t()), " 0  3\n 1  4\n 2  5\n[ CPULongType{3,2} ]");
  Tensor w = ones({2}).requires_grad_();
  EXPECT_EQ(printed(w * 2), " 2\n 2\n[ CPUFloatType{2} ]");
}

TEST(Print, WideMatricesWrapIntoColumnBlocks) {
  const std::string s = printed(arange(30, kFloat32).view({1, 30}) * 1.5);
  EXPECT_EQ(s.rfind("Columns 1 to 8\n  0.0000   1.5000", 0), 0u) << s;
  EXPECT_NE(s.find("\n\nColumns 9 to 16\n 12.0000  13.5000"), std::string::npos) << s;
  EXPECT_NE(s.find("\n\nColumns 25 to 30\n 36.0000"), std::string::npos) << s;
}

TEST(Print, LargeTensorsAreSummarized) {
  EXPECT_EQ(printed(arange(2000)),
            "    0\n    1\n    2\n...\n 1997\n 1998\n 1999\n[ CPULongType{2000} ]");
  EXPECT_EQ(printed(arange(1000)).find("..."), std::string::npos);  // at the threshold: all
  const std::string m = printed(arange(1600).view({40, 40}));
  EXPECT_EQ(m,
            "    0     1     2   ...    37    38    39\n"
            "   40    41    42   ...    77    78    79\n"
            "   80    81    82   ...   117   118   119\n"
            "...\n"
            " 1480  1481  1482   ...  1517  1518  1519\n"
            " 1520  1521  1522   ...  1557  1558  1559\n"
            " 1560  1561  1562   ...  1597  1598  1599\n"
            "[ CPULongType{40,40} ]");
  const std::string cube = printed(zeros({10, 2, 100}));
  EXPECT_NE(
      cube.find("(3,.,.) = \n 0  0  0 ...  0  0  0\n 0  0  0 ...  0  0  0\n\n...\n\n(8,.,.) = "),
      std::string::npos)
      << cube;
}

TEST(Print, LeavesTheCallersStreamFormatAlone) {
  std::ostringstream s;
  s << std::hex << tensor({1.5, 2.5}) << ' ' << 255;
  EXPECT_EQ(s.str(), " 1.5000\n 2.5000\n[ CPUDoubleType{2} ] ff");
}

}  // namespace
}  // namespace accel
