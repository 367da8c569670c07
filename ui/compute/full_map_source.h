// Where the full-map window (widgets/full_map_window.h) takes one head's whole map from.  A map
// may be large (8,192 tokens: 67 million cells, 256 MB), so map() runs on a worker thread and
// the window draws it through a pyramid (engine/ops/map_pyramid.h).
//
// Two sources exist today: the model's pass the window shows (the head's map is in it, or is
// recomputed from the model, that head alone, when the memory budget did not keep it), and
// attention maps read from a file (one head read from the file, whatever the pass kept).  A
// source that recomputes a head from the model on demand (a long text's statistics pass keeps no
// map) is one more implementation of FullMapSource, or a FunctionMapSource around a function.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

#include "engine/pass_control.h"
#include "engine/tensor.h"
#include "ui/compute/attention_snapshot.h"

namespace attnviz::ui {

/// One head's whole map and what it is over.
struct HeadMap {
    Tensor weights;               ///< [L, L]: query rows, key columns
    std::vector<QString> tokens;  ///< L: what each token shows as
    /// Per row, the piece of the whole text it stands for (ModelMaps::pieceOf: a word's last);
    /// empty when row k is piece k.
    std::vector<int> pieces;
    bool causal = false;  ///< nothing above the diagonal: drawn as masked
};

class FullMapSource {
  public:
    virtual ~FullMapSource() = default;
    /// What the window's title names: "GPT-2", "maps.npy".
    virtual QString name() const = 0;
    virtual int layers() const = 0;
    virtual int heads() const = 0;
    /// Why head `head` of layer `layer` (both from 0) has no full map here, translated; empty
    /// when it has one.  GUI thread, cheap.
    virtual QString unavailable(int layer, int head) const;
    /// That head's whole map.  Called on a worker thread, never the GUI thread: it may take
    /// seconds and must build no widget.  Polls `control` and throws Cancelled when it says
    /// stop; throws DataError with a message for the user when the map cannot be had.
    virtual HeadMap map(int layer, int head, const PassControl& control) const = 0;
    /// Bytes map() allocates besides what the source already holds (the window checks them
    /// against the memory budget before it asks): an L × L float32 map by default.
    virtual std::uint64_t mapBytes() const;
    /// L, the tokens of every map.
    virtual std::int64_t length() const = 0;
    /// Whether map() gives norm-based maps ‖α f_h(x)‖ (ComputeConfig::attention), not weights.
    virtual bool normBased() const { return false; }
};

using FullMapSourcePtr = std::shared_ptr<const FullMapSource>;

/// A source from a function, for callers that compute maps their own way.
class FunctionMapSource : public FullMapSource {
  public:
    using MapFn = std::function<HeadMap(int layer, int head, const PassControl& control)>;
    FunctionMapSource(QString name, int layers, int heads, std::int64_t length, MapFn map)
        : name_(std::move(name)),
          layers_(layers),
          heads_(heads),
          length_(length),
          map_(std::move(map)) {}
    QString name() const override { return name_; }
    int layers() const override { return layers_; }
    int heads() const override { return heads_; }
    std::int64_t length() const override { return length_; }
    HeadMap map(int layer, int head, const PassControl& control) const override {
        return map_(layer, head, control);
    }

  private:
    QString name_;
    int layers_, heads_;
    std::int64_t length_;
    MapFn map_;
};

/// The source for what `snapshot` shows: attention maps read from a file (every head of every
/// layer: map() opens the file and reads that head, whatever the pass kept), or a model's pass
/// (the heads whose maps it kept, over the tokens it shows; the others recomputed from the
/// model over its pieces, unless heads are knocked out; norm-based when the pass's maps are).
/// Null for the demo layer.  Cheap: it reads nothing.
FullMapSourcePtr full_map_source(const AttentionSnapshot& snapshot);

/// Attention maps in a file (`tokens`: its tokens file): map() reads that one head from it.
FullMapSourcePtr maps_file_source(const QString& file, const QString& tokens, int layers, int heads,
                                  std::int64_t length, bool causal);

/// For the sources' messages.
class FullMapText {
    Q_DECLARE_TR_FUNCTIONS(FullMapText)
};

}  // namespace attnviz::ui
