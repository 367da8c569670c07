// The statistics pass off the GUI thread, for the Positions view: every head's measures and
// position curves over the whole text (engine/models/head_statistics.h), however long, from
// the model (keeping no map) or from attention maps read from a file (one layer at a time).
// The pass is a BackgroundJob: progress goes to the GUI thread after every layer, and cancel()
// stops the pass before its next layer.  The residual streams it keeps are what a head's full map
// is recomputed from (PositionsView::fullMapSource).  Nothing here touches a widget.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

#include "engine/models/head_statistics.h"
#include "ui/compute/background_job.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_config.h"

namespace attnviz::ui {

/// One finished pass: the statistics, the tokens they are over, and what a head's map needs.
struct PositionStatistics {
    QString source;       ///< the model folder or maps file
    QString tokens_file;  ///< a maps file's tokens
    QString name;         ///< what the figure calls it
    models::HeadStatistics statistics;
    QStringList tokens;  ///< what each position shows as
    /// A model's (null for maps from a file): its input and the residual stream before each
    /// layer when they fitted the memory set aside for them (else empty: a head's map then
    /// runs the layers below it again).
    ModelPtr model;
    models::ModelInput input;
    std::vector<std::shared_ptr<const Tensor>> residuals;
};
using PositionStatisticsPtr = std::shared_ptr<const PositionStatistics>;

class StatisticsRunner : public QObject {
    Q_OBJECT
  public:
    /// The residual streams are kept up to this many bytes (an 8,192-token Qwen2.5-0.5B text
    /// takes 700 MB); past it a head's map recomputes the layers below.
    static constexpr std::uint64_t kResidualBytes = std::uint64_t(1) << 30;

    explicit StatisticsRunner(QObject* parent = nullptr);
    /// Stops what runs (at its next layer) without waiting for it: nothing of it is delivered.
    ~StatisticsRunner() override;

    /// The pass over `config`'s text with its model, or over its maps file.  A pass under way
    /// is stopped first; its hand-overs still queued are dropped.
    void start(const ComputeConfig& config);
    /// Stops the pass at its next layer; cancelled() follows.  Returns at once.
    void cancel();
    bool isRunning() const { return job_.isRunning(); }

  signals:
    void progressed(qint64 done, qint64 total);
    void finished(attnviz::ui::PositionStatisticsPtr statistics);
    void cancelled();
    void failed(const QString& message);

  private:
    BackgroundJob job_;
};

}  // namespace attnviz::ui

Q_DECLARE_METATYPE(attnviz::ui::PositionStatisticsPtr)
