// Models from local runners: an ollama manifest opens its model layer's GGUF blob (the same
// model and maps as the file itself), a manifest that lies is refused with its name and what
// is wrong, any other path passes through, and ollama's and LM Studio's default folders are
// listed.  The trees are built in a temporary folder as ollama and LM Studio lay them out.
#include <QTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/models/local_models.h"
#include "engine/models/model_folder.h"
#include "test_support.h"

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

const std::string kHex(64, 'a');

std::string gguf_file() {
    return test::data_dir() + "/gguf/models/llama_gqa.gguf";
}

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

std::string manifest_json(const std::string& digest, std::uint64_t size,
                          const char* type = models::kOllamaModelMediaType) {
    return std::string(R"({"schemaVersion":2,"mediaType":"application/vnd.docker.distribution.)"
                       R"(manifest.v2+json","config":{"mediaType":"application/vnd.docker.)"
                       R"(container.image.v1+json","digest":"sha256:)") +
           kHex + R"(","size":487},"layers":[{"mediaType":")" + type + R"(","digest":")" + digest +
           R"(","size":)" + std::to_string(size) +
           R"(},{"mediaType":"application/vnd.ollama.image.template","digest":"sha256:)" + kHex +
           R"(","size":10}]})";
}

/// <root>/models/{manifests/registry.ollama.ai/library/tiny/latest, blobs/sha256-<kHex>}: the
/// blob a copy of llama_gqa.gguf.  Returns the manifest's path.
std::string ollama_tree(const fs::path& root) {
    const fs::path models = root / "models";
    fs::create_directories(models / "blobs");
    fs::copy_file(gguf_file(), models / "blobs" / ("sha256-" + kHex),
                  fs::copy_options::overwrite_existing);
    const fs::path manifest = models / "manifests/registry.ollama.ai/library/tiny/latest";
    write(manifest, manifest_json("sha256:" + kHex, fs::file_size(gguf_file())));
    return manifest.string();
}

}  // namespace

class TestLocalModels : public QObject {
    Q_OBJECT
  private slots:
    void aManifestOpensItsModelBlob() {
        const std::string manifest = ollama_tree(test::fresh_dir("ollama"));
        QVERIFY(models::is_ollama_manifest(manifest));
        const std::string blob = models::ollama_model_blob(manifest);
        QVERIFY(blob.ends_with("/models/blobs/sha256-" + kHex));
        QCOMPARE(models::resolve_model_path(manifest), blob);
        // The same model as the file: the same ids and the same maps.
        const models::OpenedModel a = models::open_model_folder(manifest);
        const models::OpenedModel b = models::open_model_folder(gguf_file());
        const text::Encoding ea = a.tokenizer.encode("The cat sat", std::nullopt, true);
        QCOMPARE(ea.ids, b.tokenizer.encode("The cat sat", std::nullopt, true).ids);
        models::ModelInput in;
        in.ids = ea.ids;
        models::CollectingSink sa, sb;
        a.model->forward(in, {}, sa);
        b.model->forward(in, {}, sb);
        QCOMPARE(sa.results.size(), sb.results.size());
        for (std::size_t l = 0; l < sa.results.size(); ++l)
            QCOMPARE(sa.results[l].weights.data, sb.results[l].weights.data);
        QCOMPARE(models::open_tokenizer_folder(manifest).tokenizer.vocab_size(),
                 b.tokenizer.vocab_size());
    }

    void otherPathsPassThrough() {
        const std::string folder = test::golden_dir() + "/models/llama_gqa";
        for (const std::string& p :
             {folder, folder + "/config.json", gguf_file(), std::string("/no/such/path")}) {
            QVERIFY(!models::is_ollama_manifest(p));
            QCOMPARE(models::resolve_model_path(p), p);
        }
    }

    void manifestsThatLieAreRefused_data() {
        QTest::addColumn<QString>("manifest");
        QTest::addColumn<bool>("blob");
        QTest::addColumn<QString>("phrase");
        const auto size = std::to_string(fs::file_size(gguf_file()));
        QTest::newRow("no model layer")
            << QString::fromStdString(
                   manifest_json("sha256:" + kHex, 1, "application/vnd.ollama.image.adapter"))
            << true << "no layer of type application/vnd.ollama.image.model";
        QTest::newRow("not sha256") << QString::fromStdString(manifest_json("md5:" + kHex, 1))
                                    << true << "is not sha256:<64 hex digits>";
        QTest::newRow("short digest") << QString::fromStdString(manifest_json("sha256:abc", 1))
                                      << true << "is not sha256:<64 hex digits>";
        QTest::newRow("blob missing") << QString::fromStdString(manifest_json("sha256:" + kHex, 1))
                                      << false << "is missing (pull the model again with ollama)";
        QTest::newRow("size differs")
            << QString::fromStdString(manifest_json("sha256:" + kHex, 12345)) << true
            << "has " + QString::fromStdString(size) + " bytes, the manifest says 12345";
        QTest::newRow("layers not a list")
            << QStringLiteral(R"({"schemaVersion":2,"layers":3})") << true << "is not a list";
    }
    void manifestsThatLieAreRefused() {
        QFETCH(QString, manifest);
        QFETCH(bool, blob);
        QFETCH(QString, phrase);
        const fs::path root = test::fresh_dir("lies");
        ollama_tree(root);
        if (!blob) fs::remove(root / "models/blobs" / ("sha256-" + kHex));
        const fs::path path = root / "models/manifests/registry.ollama.ai/library/tiny/latest";
        write(path, manifest.toStdString());
        QVERIFY(models::is_ollama_manifest(path.string()));
        ATTNVIZ_EXPECT_DATA_ERROR(models::open_model_folder(path.string()), path.string() + ": ",
                                  phrase.toStdString());
    }

    void aManifestOutsideOllamasFolder() {
        const fs::path dir = test::fresh_dir("stray");
        write(dir / "latest", manifest_json("sha256:" + kHex, 1));
        ATTNVIZ_EXPECT_DATA_ERROR(models::ollama_model_blob((dir / "latest").string()),
                                  "not inside ollama's manifests folder");
    }

    void theRunnersFoldersAreListed() {
        const fs::path home = test::fresh_dir("home");
        ollama_tree(home / ".ollama");
        write(home / ".ollama/models/manifests/registry.ollama.ai/someone/coder/7b",
              manifest_json("sha256:" + kHex, 1));
        write(home / ".ollama/models/manifests/registry.ollama.ai/library/tiny/README", "notes");
        write(home / ".lmstudio/models/lmstudio-community/Qwen/qwen-0.5b-Q4_K_M.gguf", "GGUF");
        write(home / ".cache/lm-studio/models/TheBloke/x/old.GGUF", "GGUF");
        write(home / ".lmstudio/models/lmstudio-community/Qwen/readme.md", "#");
        ::unsetenv("OLLAMA_MODELS");
        const auto found = models::find_local_models(home.string());
        QStringList names;
        for (const auto& m : found)
            names << QString::fromStdString(m.runner + " " + m.name);
        QCOMPARE(names, (QStringList{"ollama someone/coder:7b", "ollama tiny:latest",
                                     "LM Studio old.GGUF", "LM Studio qwen-0.5b-Q4_K_M.gguf"}));
        QCOMPARE(models::find_local_models(home.string(), 1).size(), std::size_t(1));
        // OLLAMA_MODELS moves ollama's folder; LM Studio's stay under home.
        const fs::path elsewhere = test::fresh_dir("elsewhere");
        ollama_tree(elsewhere);
        ::setenv("OLLAMA_MODELS", (elsewhere / "models").c_str(), 1);
        const auto moved = models::find_local_models(test::fresh_dir("empty_home"));
        ::unsetenv("OLLAMA_MODELS");
        QCOMPARE(moved.size(), std::size_t(1));
        QCOMPARE(moved[0].name, std::string("tiny:latest"));
        QVERIFY(models::find_local_models("/no/such/home").empty());
    }
};

QTEST_APPLESS_MAIN(TestLocalModels)
#include "test_local_models.moc"
