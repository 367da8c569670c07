// Helpers shared by every AttnViz test: float comparison with an absolute+relative tolerance
// that reports the first mismatch (index and both values), and test-data paths.
#pragma once

#include <QString>
#include <QTest>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "engine/tensor.h"

namespace attnviz::test {

/// Folder of committed test data (tests/data), set by CMake.
std::string data_dir();
/// Folder of committed golden cases (tests/golden), set by CMake.
std::string golden_dir();
/// A fresh, empty temporary folder for this test process (removed at exit).
std::string temp_dir();

struct CompareResult {
    bool ok = true;
    std::string message;  ///< "index 17: got 0.25 expected 0.2501 (|diff| 1e-4 > tol ...)"
    double max_abs_diff = 0.0;
};

/// |a - b| <= atol + rtol * |b| elementwise; NaN matches NaN, inf matches same-signed inf.
CompareResult compare_arrays(const float* actual, const float* expected, std::size_t n,
                             double atol, double rtol = 0.0);
CompareResult compare_tensors(const Tensor& actual, const Tensor& expected, double atol,
                              double rtol = 0.0);

}  // namespace attnviz::test

/// QVERIFY2 with the first mismatch in the failure message.
#define ATTNVIZ_COMPARE_TENSORS(actual, expected, atol)                                   \
    do {                                                                                  \
        const auto cmp_ = ::attnviz::test::compare_tensors((actual), (expected), (atol)); \
        QVERIFY2(cmp_.ok, cmp_.message.c_str());                                          \
    } while (false)

#define ATTNVIZ_COMPARE_ARRAYS(actual, expected, n, atol)                                     \
    do {                                                                                      \
        const auto cmp_ = ::attnviz::test::compare_arrays((actual), (expected), (n), (atol)); \
        QVERIFY2(cmp_.ok, cmp_.message.c_str());                                              \
    } while (false)

/// |actual - expected| <= atol, with both values in the message.
#define ATTNVIZ_FUZZY(actual, expected, atol)                                               \
    do {                                                                                    \
        const double a_ = (actual), e_ = (expected);                                        \
        QVERIFY2(std::abs(a_ - e_) <= (atol),                                               \
                 qPrintable(QStringLiteral("%1 = %2, expected %3 (atol %4)")                \
                                .arg(QStringLiteral(#actual)).arg(a_, 0, 'g', 9)            \
                                .arg(e_, 0, 'g', 9).arg(double(atol))));                    \
    } while (false)
