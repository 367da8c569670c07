#include "ui/widgets/knock_out_menu.h"

#include <QAction>
#include <QMenu>
#include <QWidget>

#include "ui/document/attention_document.h"

namespace attnviz::ui {

KnockOutMenu::KnockOutMenu(AttentionDocument* document, QWidget* parent)
    : QObject(parent), doc_(document), parent_(parent) {}

QMenu* KnockOutMenu::popup(int layer, int head, const QPoint& global) {
    if (menu_) menu_->close();
    auto* menu = new QMenu(parent_);
    menu->setObjectName(QStringLiteral("knockOutMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addSection(tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1));
    QAction* full = menu->addAction(tr("Open Full Map…"), this,
                                    [this, layer, head] { emit fullMapRequested(layer, head); });
    full->setObjectName(QStringLiteral("openFullMapAction"));
    menu_ = menu;
    if (doc_->computeConfig().usesMaps()) {  // maps from a file: no pass to knock heads out of
        menu->popup(global);
        return menu;
    }
    menu->addSeparator();
    const auto& out = doc_->knockedOut();
    const auto it = out.find({layer, head});
    auto add = [&](const QString& text, const char* name, KnockOut how) {
        QAction* a = menu->addAction(
            text, this, [this, layer, head, how] { doc_->knockOut(layer, head, how); });
        a->setObjectName(QLatin1String(name));
        a->setCheckable(true);
        a->setChecked(it != out.end() && it->second == how);
    };
    add(tr("Knock Out (Zero)"), "knockOutZeroAction", KnockOut::Zero);
    add(tr("Knock Out (Mean)"), "knockOutMeanAction", KnockOut::Mean);
    menu->addSeparator();
    QAction* restore = menu->addAction(tr("Restore"), this,
                                       [this, layer, head] { doc_->restoreHead(layer, head); });
    restore->setObjectName(QStringLiteral("restoreHeadAction"));
    restore->setEnabled(it != out.end());
    QAction* all =
        menu->addAction(tr("Restore All Heads"), doc_, &AttentionDocument::restoreAllHeads);
    all->setObjectName(QStringLiteral("restoreAllHeadsAction"));
    all->setEnabled(!out.empty());
    menu_ = menu;
    menu->popup(global);
    return menu;
}

void KnockOutMenu::toggle(int layer, int head) {
    if (doc_->computeConfig().usesMaps()) return;
    if (doc_->isKnockedOut(layer, head))
        doc_->restoreHead(layer, head);
    else
        doc_->knockOut(layer, head, KnockOut::Zero);
}

}  // namespace attnviz::ui
