#include "ui/widgets/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

ExportDialog::ExportDialog(const FigureOptions& current, int num_heads, QWidget* parent)
    : QDialog(parent), base_(current) {
    setWindowTitle(tr("Export Figure"));
    auto* form = new QFormLayout(this);
    createFormatRow(form);
    createViewRows(form, current, num_heads);
    createSizeRow(form);
    createOutputRows(form, current);
    createButtons(form);
    connectSummary();
    setSize(ExportSize{});
    setFontPx(14);
}

/// PNG, SVG or PDF.
void ExportDialog::createFormatRow(QFormLayout* form) {
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("exportFormatCombo"));
    format_->addItem(tr("PNG image"), int(ExportFormat::Png));
    format_->addItem(tr("SVG vector graphics"), int(ExportFormat::Svg));
    format_->addItem(tr("PDF document"), int(ExportFormat::Pdf));
    form->addRow(tr("&Format:"), format_);
}

/// What to show depends on the view the figure comes from: the grid's panels, the steps'
/// stages of one head, or the heads the lines view draws.
void ExportDialog::createViewRows(QFormLayout* form, const FigureOptions& current, int num_heads) {
    view_ = new QComboBox(this);
    view_->setObjectName(QStringLiteral("exportViewCombo"));
    head_ = new QComboBox(this);
    head_->setObjectName(QStringLiteral("exportHeadCombo"));
    for (int h = 0; h < num_heads; ++h)
        head_->addItem(tr("Head %1").arg(h + 1), h);
    head_->setCurrentIndex(std::clamp(current.head, 0, std::max(0, num_heads - 1)));
    switch (current.kind) {
        case FigureKind::Heatmaps: {
            view_->addItem(tr("All heads and the mean"), kGrid);
            view_->addItem(tr("Mean over heads"), kMean);
            for (int h = 0; h < num_heads; ++h)
                view_->addItem(tr("Head %1").arg(h + 1), h);
            const int current_view = current.view == FigureView::Grid   ? kGrid
                                     : current.view == FigureView::Mean ? kMean
                                                                        : current.head;
            view_->setCurrentIndex(std::max(0, view_->findData(current_view)));
            form->addRow(tr("&Show:"), view_);
            break;
        }
        case FigureKind::Steps:
            form->addRow(tr("&Head:"), head_);
            view_->addItem(tr("Every stage"), kAllStages);
            if (current.step >= 0) {
                view_->addItem(tr("Stages 1 to %1, as in the view").arg(current.step + 1),
                               kStagesSoFar);
                view_->addItem(tr("Stage %1 and its inputs, large").arg(current.step + 1),
                               kFocusedStage);
                view_->setCurrentIndex(current.focus ? 2 : 1);
            }
            form->addRow(tr("&Show:"), view_);
            break;
        case FigureKind::Lines: {
            QStringList shown;
            for (int h = 0; h < num_heads; ++h)
                if (current.line_heads >> h & 1u) shown << QString::number(h + 1);
            if (!shown.isEmpty() && shown.size() < num_heads)
                view_->addItem(tr("Heads %1, as in the view").arg(shown.join(QStringLiteral(", "))),
                               kLinesAsShown);
            view_->addItem(tr("All heads"), kGrid);
            for (int h = 0; h < num_heads; ++h)
                view_->addItem(tr("Head %1").arg(h + 1), h);
            form->addRow(tr("&Show:"), view_);
            break;
        }
        case FigureKind::Compare: {
            // The heads both configurations have (the window passes the smaller count).
            view_->addItem(tr("Mean over heads"), kMean);
            for (int h = 0; h < num_heads; ++h)
                view_->addItem(tr("Head %1").arg(h + 1), h);
            const int current_view = current.view == FigureView::Head ? current.head : kMean;
            view_->setCurrentIndex(std::max(0, view_->findData(current_view)));
            form->addRow(tr("&Show:"), view_);
            break;
        }
        case FigureKind::Model:  // the whole mosaic, or the whole lens: nothing to choose
        case FigureKind::Lens:
        case FigureKind::Predictions:
            view_->hide();
            break;
    }
    head_->setVisible(current.kind == FigureKind::Steps);
}

/// Width × height, with presets for slides and paper.
void ExportDialog::createSizeRow(QFormLayout* form) {
    width_ = new QSpinBox(this);
    width_->setObjectName(QStringLiteral("exportWidthSpin"));
    width_->setRange(kMinExportSide, kMaxExportSide);
    width_->setSuffix(tr(" px"));
    height_ = new QSpinBox(this);
    height_->setObjectName(QStringLiteral("exportHeightSpin"));
    height_->setRange(kMinExportSide, kMaxExportSide);
    height_->setSuffix(tr(" px"));
    auto* size_row = new QHBoxLayout;
    size_row->addWidget(width_);
    size_row->addWidget(new QLabel(QStringLiteral("×"), this));
    size_row->addWidget(height_);
    presets_ = new QComboBox(this);
    presets_->addItem(tr("Presets…"));
    presets_->addItem(tr("Slide 16:9 (1600 × 900)"), QSize(1600, 900));
    presets_->addItem(tr("Slide 4:3 (1200 × 900)"), QSize(1200, 900));
    presets_->addItem(tr("Square (1000 × 1000)"), QSize(1000, 1000));
    presets_->addItem(tr("Paper column (700 × 500)"), QSize(700, 500));
    connect(presets_, &QComboBox::activated, this, &ExportDialog::applyPreset);
    size_row->addWidget(presets_);
    form->addRow(tr("Si&ze:"), size_row);
    // A row of several widgets gets a label without a buddy, which would show the "&".
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(size_row))) label->setBuddy(width_);
}

/// A preset fills in the size, and the combo goes back to its "Presets…" prompt.
void ExportDialog::applyPreset(int index) {
    const QSize s = presets_->itemData(index).toSize();
    if (s.isValid()) {
        width_->setValue(s.width());
        height_->setValue(s.height());
    }
    presets_->setCurrentIndex(0);
}

/// The PNG scale, the text size, the title and the summary of what will be written.
void ExportDialog::createOutputRows(QFormLayout* form, const FigureOptions& current) {
    scale_ = new QComboBox(this);
    scale_->setObjectName(QStringLiteral("exportScaleCombo"));
    scale_->addItem(tr("1× (screen)"), 1.0);
    scale_->addItem(tr("2× (slides, retina)"), 2.0);
    scale_->addItem(tr("3× (print)"), 3.0);
    scale_->addItem(tr("4×"), 4.0);
    form->addRow(tr("S&cale (PNG):"), scale_);

    font_ = new QSpinBox(this);
    font_->setObjectName(QStringLiteral("exportFontSpin"));
    font_->setRange(6, 96);
    font_->setSuffix(tr(" px"));
    form->addRow(tr("&Text size:"), font_);

    title_ = new QLineEdit(this);
    title_->setObjectName(QStringLiteral("exportTitleEdit"));
    title_->setPlaceholderText(tr("Automatic: states the configuration"));
    title_->setText(current.title);
    form->addRow(tr("T&itle:"), title_);

    summary_ = new QLabel(this);
    summary_->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(summary_);
}

/// Export… and Cancel.
void ExportDialog::createButtons(QFormLayout* form) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

/// The summary follows the size, the scale and the format.
void ExportDialog::connectSummary() {
    for (QSpinBox* spin : {width_, height_})
        connect(spin, &QSpinBox::valueChanged, this, &ExportDialog::updateSummary);
    connect(scale_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateSummary);
    connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateSummary);
}

void ExportDialog::setSize(const ExportSize& size) {
    width_->setValue(size.width);
    height_->setValue(size.height);
    int best = 0;
    for (int k = 0; k < scale_->count(); ++k)
        if (std::abs(scale_->itemData(k).toDouble() - size.scale) <
            std::abs(scale_->itemData(best).toDouble() - size.scale))
            best = k;
    scale_->setCurrentIndex(best);
    updateSummary();
}

void ExportDialog::setFontPx(int px) {
    font_->setValue(px);
}

FigureOptions ExportDialog::figureOptions() const {
    FigureOptions o = base_;
    const int v = view_->currentData().toInt();
    switch (o.kind) {
        case FigureKind::Heatmaps:
            o.view = v == kGrid   ? FigureView::Grid
                     : v == kMean ? FigureView::Mean
                                  : FigureView::Head;
            if (v >= 0) o.head = v;
            break;
        case FigureKind::Steps:
            o.head = head_->currentData().toInt();
            if (v == kAllStages) o.step = -1;
            o.focus = v == kFocusedStage;
            break;
        case FigureKind::Lines:
            if (v == kGrid)
                o.line_heads = ~quint64(0);
            else if (v >= 0)
                o.line_heads = quint64(1) << v;
            break;
        case FigureKind::Compare:
            o.view = v >= 0 ? FigureView::Head : FigureView::Mean;
            if (v >= 0) o.head = v;
            break;
        case FigureKind::Model:
        case FigureKind::Lens:
        case FigureKind::Predictions:
            break;
    }
    o.font_px = font_->value();
    o.title = title_->text().trimmed();
    o.show_title = true;
    return o;
}

ExportSize ExportDialog::exportSize() const {
    return ExportSize{width_->value(), height_->value(), scale_->currentData().toDouble()};
}

ExportFormat ExportDialog::format() const {
    return ExportFormat(format_->currentData().toInt());
}

void ExportDialog::updateSummary() {
    const ExportSize s = exportSize();
    scale_->setEnabled(format() == ExportFormat::Png);
    if (format() == ExportFormat::Png)
        summary_->setText(tr("The image will be %1 × %2 pixels.")
                              .arg(int(std::lround(s.width * s.scale)))
                              .arg(int(std::lround(s.height * s.scale))));
    else
        summary_->setText(tr("Vector output: real text, crisp cells at any zoom (%1 × %2 pt).")
                              .arg(s.width)
                              .arg(s.height));
}

}  // namespace attnviz::ui
