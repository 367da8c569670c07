// The built-in examples of the Examples menu, each explaining one idea: self-attention, the
// padding mask, the causal mask, cross-attention, the head count and dropout.  Each is an
// .attnviz session compiled into the resources (:/examples) plus a title and a paragraph
// (translated here, so the session files hold no user-visible text).
#pragma once

#include <QString>

#include <vector>

namespace attnviz::ui {

struct Example {
    QString id;            ///< "self_attention"
    QString menu_group;    ///< examples sharing a submenu ("Head count"), or empty
    QString title;         ///< menu text and banner title
    QString explanation;   ///< one paragraph for the banner
    QString resource;      ///< ":/examples/self_attention.attnviz"
    QString tab;           ///< the view to open: "grid", "steps", "lines", ...
    bool trained = false;  ///< opens a model AttnViz ships (resources/models/)
    /// Activation patching (tab "patch"): the Patching tab's inputs, swept once the model is
    /// open.  Empty clean text: none.
    struct Patch {
        QString clean, corrupt, target, distractor;
    } patch;
    /// The generation timeline: the session holds the model's continuation at step 0, and
    /// once open Play replays it, a token a step (no edit: Continue writes more).
    bool plays = false;
    /// A corpus AttnViz ships (resources/corpora: "fortunes_en.txt"), measured on the model once
    /// it is open (heads across a corpus); empty: none.
    QString corpus = {};
};

std::vector<Example> builtin_examples();

}  // namespace attnviz::ui
