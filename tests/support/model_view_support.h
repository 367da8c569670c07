// Helpers for the tests of the model tabs that explain a pass (Flow, Who writes, Saliency,
// Why, Circuits): a view shown on a pass and waited for, and the CLI's refusal of bad input.
#pragma once

#include <QFile>
#include <QList>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>

#include <memory>

#include "test_support.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/model_store.h"

namespace attnviz::test {

/// A `View` of `size` on `pass` and `model`, shown, once it has emitted `finished` (its pass
/// done); null when it never shows or never finishes.
template <class View, class Signal>
std::unique_ptr<View> shown_model_view(QSize size, ui::SnapshotPtr pass, ui::ModelPtr model,
                                       Signal finished) {
    auto v = std::make_unique<View>();
    v->resize(size);
    QSignalSpy done(v.get(), finished);
    v->setSource(std::move(pass), std::move(model));
    v->show();
    if (!QTest::qWaitForWindowExposed(v.get()) || !done.wait(60000)) return nullptr;
    return v;
}

/// Arguments the CLI must refuse: the exit code (1: data, 2: usage) and a word of its message.
struct BadInput {
    QStringList args;
    int status;
    const char* says;
};

/// How `attnviz command… args… --out out` failed to refuse each case as the rules say (exit
/// `status`, one line on stderr that names `says`, no `out` written), one line a case; empty
/// when every case was refused so.
inline QString refusal_problems(const QStringList& command, const QList<BadInput>& cases,
                                const QString& out) {
    QStringList problems;
    for (const BadInput& b : cases) {
        QFile::remove(out);
        const ProcessRun r =
            run_attnviz(command + b.args + QStringList{QStringLiteral("--out"), out});
        const QString what = b.args.join(QLatin1Char(' ')) +
                             QStringLiteral(": exit %1, ").arg(r.status) + QString::fromUtf8(r.err);
        if (r.status != b.status) problems << QStringLiteral("not exit %1: ").arg(b.status) + what;
        if (r.err.count('\n') != 1) problems << QStringLiteral("not one line: ") + what;
        if (!r.err.contains(b.says))
            problems << QStringLiteral("does not say %1: ").arg(QLatin1String(b.says)) + what;
        if (QFile::exists(out)) problems << QStringLiteral("wrote the file: ") + what;
    }
    return problems.join(QLatin1Char('\n'));
}

}  // namespace attnviz::test
