#include "test_support.h"

#include <QDir>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <memory>
#include <sstream>

namespace attnviz::test {

std::string data_dir() {
    return ATTNVIZ_TEST_DATA_DIR;
}
std::string golden_dir() {
    return ATTNVIZ_TEST_GOLDEN_DIR;
}

std::string temp_dir() {
    static std::unique_ptr<QTemporaryDir> dir = std::make_unique<QTemporaryDir>();
    return dir->path().toStdString();
}

CompareResult compare_arrays(const float* actual, const float* expected, std::size_t n, double atol,
                             double rtol) {
    CompareResult r;
    for (std::size_t i = 0; i < n; ++i) {
        const double a = actual[i], e = expected[i];
        bool same;
        if (std::isnan(e) || std::isnan(a)) {
            same = std::isnan(e) && std::isnan(a);
        } else if (std::isinf(e) || std::isinf(a)) {
            same = a == e;
        } else {
            const double d = std::abs(a - e);
            r.max_abs_diff = std::max(r.max_abs_diff, d);
            same = d <= atol + rtol * std::abs(e);
        }
        if (!same && r.ok) {
            r.ok = false;
            std::ostringstream os;
            os.precision(9);
            os << "first mismatch at index " << i << " of " << n << ": got " << a << ", expected "
               << e << " (|diff| " << std::abs(a - e) << ", atol " << atol << ", rtol " << rtol
               << ")";
            r.message = os.str();
        }
    }
    return r;
}

CompareResult compare_tensors(const Tensor& actual, const Tensor& expected, double atol,
                              double rtol) {
    if (actual.shape != expected.shape) {
        CompareResult r;
        r.ok = false;
        r.message = "shape " + shape_string(actual.shape) + " differs from expected " +
                    shape_string(expected.shape);
        return r;
    }
    return compare_arrays(actual.ptr(), expected.ptr(), actual.numel(), atol, rtol);
}

ProcessRun run_attnviz(const QStringList& args, bool without_display) {
    QProcess p;
    p.setProgram(qEnvironmentVariable("ATTNVIZ_CLI"));
    p.setArguments(args);
    if (without_display) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(v));
        p.setProcessEnvironment(env);
    }
    p.start();
    ProcessRun r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace attnviz::test
