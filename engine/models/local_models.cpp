#include "engine/models/local_models.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/json.h"

namespace attnviz::models {

namespace {

namespace fs = std::filesystem;
namespace json = io::json;

constexpr std::size_t kMaxManifestBytes = 1 << 20;

bool regular_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

/// The manifest's JSON when `path` looks like one, else nullopt.
std::optional<std::string> manifest_text(const std::string& path) {
    std::error_code ec;
    if (!regular_file(path) || fs::file_size(path, ec) > kMaxManifestBytes || ec)
        return std::nullopt;
    std::string text;
    try {
        text = io::read_file(path, kMaxManifestBytes);
    } catch (const DataError&) {
        return std::nullopt;
    }
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || text[first] != '{') return std::nullopt;
    try {
        const json::Document doc = json::parse(text);
        if (!json::find(doc.root(), "schemaVersion") || !json::find(doc.root(), "layers"))
            return std::nullopt;
    } catch (const DataError&) {
        return std::nullopt;
    }
    return text;
}

bool is_hex(std::string_view s) {
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

/// "qwen2.5:0.5b" from …/manifests/registry.ollama.ai/library/qwen2.5/0.5b; the namespace is
/// kept when it is not "library" ("user/model:tag").
std::string ollama_name(const fs::path& manifest, const fs::path& manifests) {
    const fs::path rel = manifest.lexically_relative(manifests);
    std::vector<std::string> parts;
    for (const fs::path& p : rel)
        parts.push_back(p.string());
    if (parts.size() < 2) return manifest.filename().string();
    std::string name = parts[parts.size() - 2] + ":" + parts.back();
    if (parts.size() >= 3 && parts[parts.size() - 3] != "library")
        name = parts[parts.size() - 3] + "/" + name;
    return name;
}

void add_gguf_files(const fs::path& root, const std::string& runner, std::size_t limit,
                    std::vector<LocalModel>* out) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return;
    for (fs::recursive_directory_iterator
             it(root, fs::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end && out->size() < limit; it.increment(ec)) {
        if (it.depth() > 4) {
            it.disable_recursion_pending();
            continue;
        }
        const fs::path& p = it->path();
        std::string ext = p.extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
        if (ext == ".gguf" && regular_file(p))
            out->push_back({runner, p.filename().string(), p.string()});
    }
}

}  // namespace

bool is_ollama_manifest(const std::string& path) {
    return manifest_text(path).has_value();
}

std::string ollama_model_blob(const std::string& manifest) {
    const auto text = manifest_text(manifest);
    if (!text)
        throw DataError(manifest +
                        ": not an ollama manifest (a JSON file with schemaVersion "
                        "and layers)");
    const json::Document doc = json::parse(*text);
    const auto layers = json::find(doc.root(), "layers");
    if (!layers->is_array()) throw DataError(manifest + ": its \"layers\" is not a list");
    std::optional<std::string> digest;
    std::optional<std::uint64_t> size;
    for (json::Element layer : json::Array(*layers)) {
        const auto type = json::find(layer, "mediaType");
        if (!type || json::as_string(*type) != std::string_view(kOllamaModelMediaType)) continue;
        const auto d = json::find(layer, "digest");
        const auto s = json::find(layer, "size");
        if (!d || !json::as_string(*d))
            throw DataError(manifest + ": its model layer has no digest");
        digest = std::string(*json::as_string(*d));
        if (s) size = json::as_uint64(*s);
        break;
    }
    if (!digest)
        throw DataError(manifest + ": no layer of type " + kOllamaModelMediaType +
                        " (a manifest of an adapter or a projector only?)");
    const std::string_view hex =
        std::string_view(*digest).substr(std::min<std::size_t>(7, digest->size()));
    if (digest->rfind("sha256:", 0) != 0 || hex.size() != 64 || !is_hex(hex))
        throw DataError(manifest + ": the model layer's digest '" + *digest +
                        "' is not sha256:<64 hex digits>");
    // The models folder is the one above "manifests".
    fs::path root = fs::path(manifest).parent_path();
    while (!root.empty() && root.filename() != "manifests" && root != root.parent_path())
        root = root.parent_path();
    if (root.filename() != "manifests")
        throw DataError(manifest +
                        ": not inside ollama's manifests folder, so its blobs "
                        "folder is unknown");
    const fs::path blob = root.parent_path() / "blobs" / ("sha256-" + std::string(hex));
    std::error_code ec;
    const std::uintmax_t bytes = fs::file_size(blob, ec);
    if (ec || !regular_file(blob))
        throw DataError(manifest + ": its model blob " + blob.string() +
                        " is missing (pull the model again with ollama)");
    if (size && bytes != *size)
        throw DataError(manifest + ": its model blob " + blob.string() + " has " +
                        std::to_string(bytes) + " bytes, the manifest says " +
                        std::to_string(*size) + " (a download still running, or cut short?)");
    return blob.string();
}

std::string resolve_model_path(const std::string& path) {
    return is_ollama_manifest(path) ? ollama_model_blob(path) : path;
}

std::vector<LocalModel> find_local_models(const std::string& home, std::size_t limit) {
    std::vector<LocalModel> out;
    std::error_code ec;
    const char* env = std::getenv("OLLAMA_MODELS");
    const fs::path ollama = env && *env ? fs::path(env) : fs::path(home) / ".ollama" / "models";
    const fs::path manifests = ollama / "manifests";
    if (fs::is_directory(manifests, ec)) {
        for (fs::recursive_directory_iterator
                 it(manifests, fs::directory_options::skip_permission_denied, ec),
             end;
             !ec && it != end && out.size() < limit; it.increment(ec)) {
            if (it.depth() > 5) {
                it.disable_recursion_pending();
                continue;
            }
            if (regular_file(it->path()) && is_ollama_manifest(it->path().string()))
                out.push_back({"ollama", ollama_name(it->path(), manifests), it->path().string()});
        }
    }
    for (const fs::path& p : {fs::path(home) / ".lmstudio" / "models",
                              fs::path(home) / ".cache" / "lm-studio" / "models"})
        add_gguf_files(p, "LM Studio", limit, &out);
    std::sort(out.begin(), out.end(), [](const LocalModel& a, const LocalModel& b) {
        return a.runner != b.runner ? a.runner > b.runner : a.name < b.name;  // ollama first
    });
    return out;
}

}  // namespace attnviz::models
