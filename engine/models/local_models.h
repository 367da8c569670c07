// The models people already have on disk from local runners: an ollama model opens by its
// manifest (the GGUF blob of its model layer), and the runners' default folders are listed
// for the window's File ▸ Open Model menu.
#pragma once

#include <string>
#include <vector>

namespace attnviz::models {

/// ollama's media type of the layer that holds the weights, a GGUF file.
inline constexpr const char* kOllamaModelMediaType = "application/vnd.ollama.image.model";

/// True when `path` is an ollama manifest (…/models/manifests/<registry>/<namespace>/<model>/
/// <tag>): a small JSON file with "schemaVersion" and "layers".  Reads at most its first
/// megabyte; false for anything else, without an error.
bool is_ollama_manifest(const std::string& path);

/// The GGUF blob a manifest's model layer names: <models>/blobs/sha256-<hex>, <models> being
/// the folder above "manifests".  Checked: a sha256 digest, the blob present with the size the
/// manifest gives.  Throws DataError naming the manifest and what is wrong.
std::string ollama_model_blob(const std::string& manifest);

/// `path` with an ollama manifest replaced by its model blob; any other path as it is.
std::string resolve_model_path(const std::string& path);

struct LocalModel {
    std::string runner;  ///< "ollama", "LM Studio"
    std::string name;    ///< "qwen2.5:0.5b", or the GGUF file's name
    std::string path;    ///< what opens it: the manifest, or the .gguf file
};

/// The models in ollama's (OLLAMA_MODELS, else ~/.ollama/models) and LM Studio's
/// (~/.lmstudio/models, ~/.cache/lm-studio/models) default folders under `home`, sorted by
/// runner then name.  Folders that do not exist are skipped; nothing is opened or parsed
/// beyond the manifests' names.  At most `limit` models.
std::vector<LocalModel> find_local_models(const std::string& home, std::size_t limit = 200);

}  // namespace attnviz::models
