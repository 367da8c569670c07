#include "test_support.h"

#include "engine/io/file_util.h"
#include "engine/io/npy.h"
#include "engine/models/model.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>

namespace attnviz::test {

std::vector<std::int64_t> read_int64_npy(const std::string& path) {
    const io::NpyInfo info = io::read_npy_info(path);
    const std::string bytes = io::read_file(path);
    const std::size_t n = shape_numel(info.shape);
    if (bytes.size() < n * 8) throw DataError(path + ": shorter than its header says");
    std::vector<std::int64_t> ids(n);
    std::memcpy(ids.data(), bytes.data() + bytes.size() - n * 8, n * 8);
    return ids;
}

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

std::string fresh_dir(const std::string& name) {
    const std::string dir = temp_dir() + "/" + name;
    QDir(QString::fromStdString(dir)).removeRecursively();
    QDir().mkpath(QString::fromStdString(dir));
    return dir;
}

QString golden_model(const char* name) {
    return QString::fromStdString(golden_dir() + "/models/" + name);
}

QString temp_path(const QString& name) {
    return QString::fromStdString(temp_dir()) + QLatin1Char('/') + name;
}

QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(
        QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}
QStringList entries(const std::string& dir) {
    return entries(QString::fromStdString(dir));
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

CompareResult compare_forward_passes(const models::Model& actual, const models::Model& expected,
                                     const models::ModelInput& input, int threads, double maps_atol,
                                     double hidden_atol) {
    models::ModelForwardOptions opt;
    opt.num_threads = threads;
    models::CollectingSink a(true), e(true);
    actual.forward(input, opt, a);
    expected.forward(input, opt, e);
    CompareResult r;
    if (a.results.size() != e.results.size() || a.hidden_states.size() != e.hidden_states.size()) {
        r.ok = false;
        r.message = std::to_string(a.results.size()) + " layers and " +
                    std::to_string(a.hidden_states.size()) + " hidden states, expected " +
                    std::to_string(e.results.size()) + " and " +
                    std::to_string(e.hidden_states.size());
        return r;
    }
    const auto merge = [&](const CompareResult& c, const std::string& what) {
        r.max_abs_diff = std::max(r.max_abs_diff, c.max_abs_diff);
        if (!c.ok && r.ok) {
            r.ok = false;
            r.message = what + ", " + std::to_string(threads) + " threads: " + c.message;
        }
    };
    for (std::size_t l = 0; l < e.results.size(); ++l)
        merge(compare_tensors(a.results[l].weights, e.results[l].weights, maps_atol),
              "layer " + std::to_string(l));
    for (std::size_t i = 0; i < e.hidden_states.size(); ++i)
        merge(compare_tensors(a.hidden_states[i], e.hidden_states[i], hidden_atol),
              "hidden state " + std::to_string(i));
    return r;
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

QString slice_mismatch(Tensor got, Tensor full, std::int64_t q0, std::int64_t k0) {
    for (Tensor* t : {&got, &full})
        if (t->rank() == 3) t->shape.insert(t->shape.begin() + 1, 1);
    if (got.rank() != 4 || full.rank() != 4)
        return QStringLiteral("ranks %1 and %2, not 4").arg(got.rank()).arg(full.rank());
    for (std::size_t d : {0u, 1u})
        if (got.dim(d) > full.dim(d))
            return QStringLiteral("dimension %1 is %2, the full result has %3")
                .arg(d)
                .arg(got.dim(d))
                .arg(full.dim(d));
    if (q0 + got.dim(2) > full.dim(2) || k0 + got.dim(3) > full.dim(3))
        return QStringLiteral("the block does not fit in the full result");
    auto at = [](const Tensor& t, std::int64_t n, std::int64_t h, std::int64_t i, std::int64_t j) {
        return t.data[std::size_t(((n * t.dim(1) + h) * t.dim(2) + i) * t.dim(3) + j)];
    };
    for (std::int64_t n = 0; n < got.dim(0); ++n)
        for (std::int64_t h = 0; h < got.dim(1); ++h)
            for (std::int64_t i = 0; i < got.dim(2); ++i)
                for (std::int64_t j = 0; j < got.dim(3); ++j) {
                    const float a = at(got, n, h, i, j), b = at(full, n, h, q0 + i, k0 + j);
                    if (!(std::abs(a - b) <= 1e-6f + 1e-5f * std::abs(b) ||
                          (std::isnan(a) && std::isnan(b))))
                        return QStringLiteral("[%1,%2,%3,%4]: %5 but the full result has %6")
                            .arg(n)
                            .arg(h)
                            .arg(i)
                            .arg(j)
                            .arg(double(a), 0, 'g', 9)
                            .arg(double(b), 0, 'g', 9);
                }
    return {};
}

CliRun run_cli(const QStringList& args) {
    const ProcessRun p = run_attnviz(args);
    return {p.status, QString::fromUtf8(p.out), QString::fromUtf8(p.err)};
}

std::vector<double> pooled_reference(const float* map, std::int64_t L, std::int64_t cell,
                                     bool causal, bool max) {
    const std::int64_t cells = (L + cell - 1) / cell;
    std::vector<double> out;
    for (std::int64_t r = 0; r < cells; ++r)
        for (std::int64_t c = 0; c < cells; ++c) {
            double sum = 0, pairs = 0, top = 0;
            for (std::int64_t i = r * cell; i < std::min(L, (r + 1) * cell); ++i)
                for (std::int64_t j = c * cell; j < std::min(L, (c + 1) * cell); ++j)
                    if (!causal || j <= i) {
                        sum += map[i * L + j];
                        pairs += 1;
                        top = std::max(top, double(map[i * L + j]));
                    }
            out.push_back(max ? top : pairs > 0 ? sum / pairs : 0.0);
        }
    return out;
}

QString squares_differ(const float* got, const std::vector<double>& expected, double tol) {
    for (std::size_t k = 0; k < expected.size(); ++k)
        if (!(std::abs(double(got[k]) - expected[k]) <= tol))
            return QStringLiteral("square %1: %2, expected %3")
                .arg(k)
                .arg(double(got[k]), 0, 'g', 9)
                .arg(expected[k], 0, 'g', 9);
    return {};
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const auto ranks = [](const std::vector<double>& v) {
        std::vector<std::size_t> order(v.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t x, std::size_t y) { return v[x] < v[y]; });
        std::vector<double> r(v.size());
        for (std::size_t i = 0; i < order.size();) {
            std::size_t j = i;
            while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
                ++j;
            for (std::size_t k = i; k <= j; ++k)
                r[order[k]] = 0.5 * double(i + j);
            i = j + 1;
        }
        return r;
    };
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double mean = (double(a.size()) - 1.0) / 2.0;
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
        ab += (ra[i] - mean) * (rb[i] - mean);
        aa += (ra[i] - mean) * (ra[i] - mean);
        bb += (rb[i] - mean) * (rb[i] - mean);
    }
    return ab / std::sqrt(aa * bb);
}

}  // namespace attnviz::test
