// Helpers shared by every AttnViz test: float comparison with an absolute+relative tolerance
// that reports the first mismatch (index and both values), and test-data paths.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTest>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/tensor.h"

// QTRY_VERIFY and its kin poll their condition between 50 ms waits, so a condition met 1 ms
// after a poll costs 49 ms, and the GUI suites wait thousands of times (for the worker, a
// repaint).  Poll every 5 ms.
// Only the step changes; the timeout is still counted in steps, each of at least one wait.
// clang-format off
#undef QTRY_IMPL
#define QTRY_IMPL(expr, timeout)                                      \
    const int qt_test_step = timeout < 35 ? timeout / 7 + 1 : 5;      \
    const int qt_test_timeoutValue = timeout;                         \
    { QTRY_LOOP_IMPL(expr, qt_test_timeoutValue, qt_test_step) }      \
    QTRY_TIMEOUT_DEBUG_IMPL(expr, qt_test_timeoutValue, qt_test_step)
// clang-format on

namespace attnviz::models {
class Model;
struct ModelInput;
}  // namespace attnviz::models

namespace attnviz::test {

/// Folder of committed test data (tests/data), set by CMake.
std::string data_dir();
/// Folder of committed golden cases (tests/golden), set by CMake.
std::string golden_dir();
/// A fresh, empty temporary folder for this test process (removed at exit).
std::string temp_dir();
/// temp_dir()/name, emptied (or made): a folder of one test's own.
std::string fresh_dir(const std::string& name);
/// golden_dir()/models/name: a tiny Hugging Face checkpoint (tests/golden/models).
QString golden_model(const char* name);
/// temp_dir()/name: a file (or folder) path for a test to write.
QString temp_path(const QString& name);
/// The JSON object in the file at `path`; empty when it cannot be read or is no object.
QJsonObject read_json(const QString& path);
inline QJsonObject read_json(const std::string& path) {
    return read_json(QString::fromStdString(path));
}
/// Every entry of `dir` (hidden ones too), sorted by name: what a writer left behind.
QStringList entries(const QString& dir);
QStringList entries(const std::string& dir);
/// The values of an int64 .npy as numpy writes it (little-endian, C order), such as a golden
/// case's input_ids: the data are the file's last numel * 8 bytes, since the engine's reader
/// (float data) checks the header but refuses the dtype.
std::vector<std::int64_t> read_int64_npy(const std::string& path);

struct CompareResult {
    bool ok = true;
    std::string message;  ///< "index 17: got 0.25 expected 0.2501 (|diff| 1e-4 > tol ...)"
    double max_abs_diff = 0.0;
};

/// |a - b| <= atol + rtol * |b| elementwise; NaN matches NaN, inf matches same-signed inf.
CompareResult compare_arrays(const float* actual, const float* expected, std::size_t n, double atol,
                             double rtol = 0.0);
CompareResult compare_tensors(const Tensor& actual, const Tensor& expected, double atol,
                              double rtol = 0.0);

/// Runs `actual` and `expected` on `input` with `threads` threads, every layer's maps and the
/// hidden states collected, and compares them: maps within maps_atol, hidden states within
/// hidden_atol; the message names the layer (or hidden state) and the first difference.
CompareResult compare_forward_passes(const models::Model& actual, const models::Model& expected,
                                     const models::ModelInput& input, int threads, double maps_atol,
                                     double hidden_atol);

/// Spearman's rank correlation of `a` and `b` (Pearson's over their ranks, ties given their
/// mean rank), as attribution patching is compared with the exact sweep.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

/// `map` [L, L] pooled into squares of `cell` tokens a side (the last ones narrower) straight
/// from the definition, in float64, [cells, cells] row-major: per square the largest weight
/// (`max`), or the mean over the pairs a query sees (causal: key ≤ query; 0 where none).
std::vector<double> pooled_reference(const float* map, std::int64_t L, std::int64_t cell,
                                     bool causal, bool max);
/// Empty when `got` matches `expected` within `tol` everywhere, else the first square that
/// does not and both values.
QString squares_differ(const float* got, const std::vector<double>& expected, double tol);

/// What the attnviz binary (path in ATTNVIZ_CLI, set by CTest) did with some arguments.
struct ProcessRun {
    int status = -1;  ///< exit code, or -1 if it crashed or did not finish in time
    QByteArray out, err;
};

/// Runs attnviz.  With `without_display` the display variables and QT_QPA_PLATFORM are
/// removed, so the command has to manage on its own (as in a terminal over ssh or in CI).
ProcessRun run_attnviz(const QStringList& args, bool without_display = false);

/// Where `got` differs from the block of `full` that starts at query row q0 and key column
/// k0: got[n, h, i, j] against full[n, h, q0 + i, k0 + j], within float rounding (on fewer
/// rows the kernels may sum in another order); NaN matches only NaN.  Rank-3 tensors are
/// taken as [N, 1, L, S].  Empty when they agree, else the first difference.
QString slice_mismatch(Tensor got, Tensor full, std::int64_t q0, std::int64_t k0);

/// The same run with its output decoded from UTF-8, as the command-line tests compare it.
struct CliRun {
    int status = -1;
    QString out, err;
};
CliRun run_cli(const QStringList& args);

}  // namespace attnviz::test

/// `expr` must throw attnviz::DataError whose message contains every phrase given.
#define ATTNVIZ_EXPECT_DATA_ERROR(expr, ...)                                                       \
    do {                                                                                           \
        std::string msg_;                                                                          \
        bool thrown_ = false;                                                                      \
        try {                                                                                      \
            (void)(expr);                                                                          \
        } catch (const ::attnviz::DataError& e_) {                                                 \
            thrown_ = true;                                                                        \
            msg_ = e_.what();                                                                      \
        } catch (const std::exception& e_) {                                                       \
            QFAIL(qPrintable(QStringLiteral("%1 threw a non-DataError: %2")                        \
                                 .arg(QStringLiteral(#expr), QString::fromStdString(e_.what())))); \
        }                                                                                          \
        QVERIFY2(thrown_, "no DataError from " #expr);                                             \
        for (const std::string& p_ : std::initializer_list<std::string>{__VA_ARGS__})              \
            QVERIFY2(                                                                              \
                msg_.find(p_) != std::string::npos,                                                \
                qPrintable(QStringLiteral("message \"%1\" lacks \"%2\"")                           \
                               .arg(QString::fromStdString(msg_), QString::fromStdString(p_))));   \
    } while (false)

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
#define ATTNVIZ_FUZZY(actual, expected, atol)                                \
    do {                                                                     \
        const double a_ = (actual), e_ = (expected);                         \
        QVERIFY2(std::abs(a_ - e_) <= (atol),                                \
                 qPrintable(QStringLiteral("%1 = %2, expected %3 (atol %4)") \
                                .arg(QStringLiteral(#actual))                \
                                .arg(a_, 0, 'g', 9)                          \
                                .arg(e_, 0, 'g', 9)                          \
                                .arg(double(atol))));                        \
    } while (false)
