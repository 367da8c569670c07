// .npy reading and writing (engine/io/npy.h) and the file helpers beneath it
// (engine/io/file_util.h), against files numpy wrote (tests/data/io/make_io_cases.py).

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "engine/io/file_util.h"
#include "engine/io/npy.h"
#include "test_support.h"

using namespace attnviz;

namespace {

std::string npy_dir() {
    return test::data_dir() + "/io/npy/";
}
std::string npy_path(const std::string& file) {
    return npy_dir() + file;
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

Tensor transpose2d(const Tensor& t) {
    Tensor out({t.dim(1), t.dim(0)});
    for (std::int64_t i = 0; i < t.dim(0); ++i)
        for (std::int64_t j = 0; j < t.dim(1); ++j)
            out.data[static_cast<std::size_t>(j * t.dim(0) + i)] =
                t.data[static_cast<std::size_t>(i * t.dim(1) + j)];
    return out;
}

}  // namespace

class TestNpy : public QObject {
    Q_OBJECT

  private slots:
    void readsFloatDtypesInBothByteOrders() {
        const Tensor le = io::read_npy(npy_path("f4_le.npy"));
        QCOMPARE(le.shape, Shape({2, 3, 4}));
        QVERIFY(same_bits(io::read_npy(npy_path("f4_be.npy")).data, le.data));

        // float64 rounds to float32 exactly as numpy's astype(float32) does.
        const Tensor f8_ref = io::read_npy(npy_path("f8_as_f4.npy"));
        for (const char* file : {"f8_le.npy", "f8_be.npy"}) {
            const Tensor t = io::read_npy(npy_path(file));
            QCOMPARE(t.shape, Shape({2, 3, 4}));
            QVERIFY2(same_bits(t.data, f8_ref.data), file);
        }
    }

    void keepsSpecialValues() {
        const Tensor t = io::read_npy(npy_path("f4_special.npy"));
        QCOMPARE(t.numel(), std::size_t(8));
        QVERIFY(std::isnan(t.data[0]));
        QCOMPARE(t.data[1], std::numeric_limits<float>::infinity());
        QCOMPARE(t.data[2], -std::numeric_limits<float>::infinity());
        QVERIFY(t.data[3] == 0.0f && std::signbit(t.data[3]));
        QCOMPARE(std::bit_cast<std::uint32_t>(t.data[4]), std::uint32_t(1));  // smallest denormal
        QCOMPARE(t.data[6], std::numeric_limits<float>::max());

        const Tensor d = io::read_npy(npy_path("f8_special.npy"));
        QVERIFY(std::isnan(d.data[0]));
        QCOMPARE(d.data[1], std::numeric_limits<float>::infinity());
        QCOMPARE(d.data[2], -std::numeric_limits<float>::infinity());
        QVERIFY(d.data[3] == 0.0f && std::signbit(d.data[3]));
        QCOMPARE(d.data[4], std::numeric_limits<float>::infinity());  // 1e300 overflows float
        QVERIFY(d.data[5] == 0.0f && std::signbit(d.data[5]));        // -1e-300 underflows
    }

    void readsEveryMaskDtype_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"mask_b1.npy", "mask_u1.npy", "mask_i1.npy", "mask_i4.npy",
                              "mask_i4_be.npy", "mask_i8.npy", "mask_fortran_b1.npy"})
            QTest::newRow(f) << QString(f);
    }
    void readsEveryMaskDtype() {
        QFETCH(QString, file);
        const Tensor ref = io::read_npy(npy_path("mask_ref.npy"));
        const Mask m = io::read_npy_mask(npy_path(file.toStdString()));
        QVERIFY(m.is_bool());
        QCOMPARE(m.shape, ref.shape);
        ATTNVIZ_COMPARE_ARRAYS(m.values.data(), ref.data.data(), ref.numel(), 0.0);
    }

    void boolBytesOtherThanZeroOrOneAreTrue() {
        const Mask m = io::read_npy_mask(npy_path("mask_b1_nonbinary.npy"));
        QVERIFY(m.is_bool());
        QCOMPARE(m.values, std::vector<float>({0, 1, 1, 1, 0}));
    }

    void floatMaskIsAdditive() {
        const Mask m = io::read_npy_mask(npy_path("mask_additive_f4.npy"));
        QVERIFY(!m.is_bool());
        QCOMPARE(m.shape, Shape({2, 3}));
        QCOMPARE(m.additive_at(1), -std::numeric_limits<float>::infinity());
        QCOMPARE(m.additive_at(3), -1e9f);
        QCOMPARE(m.additive_at(5), 0.5f);
    }

    void readNpyRefusesMasks_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("descr");
        QTest::newRow("bool") << "mask_b1.npy"
                              << "'|b1' (bool)";
        QTest::newRow("uint8") << "mask_u1.npy"
                               << "'|u1' (uint8)";
        QTest::newRow("int32") << "mask_i4.npy"
                               << "'<i4' (int32)";
        QTest::newRow("int64") << "mask_i8.npy"
                               << "'<i8' (int64)";
    }
    void readNpyRefusesMasks() {
        QFETCH(QString, file);
        QFETCH(QString, descr);
        const std::string path = npy_path(file.toStdString());
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy(path), path + ": ", descr.toStdString(),
                                  "is not a float array", "expected float32");
    }

    void fortranOrderIsReorderedToC() {
        QVERIFY(io::read_npy_info(npy_path("fortran_f4_3x4.npy")).fortran_order);
        QVERIFY(!io::read_npy_info(npy_path("c_f4_3x4.npy")).fortran_order);
        const Tensor c34 = io::read_npy(npy_path("c_f4_3x4.npy"));
        ATTNVIZ_COMPARE_TENSORS(io::read_npy(npy_path("fortran_f4_3x4.npy")), c34, 0.0);
        ATTNVIZ_COMPARE_TENSORS(io::read_npy(npy_path("fortran_f4_2x3x4.npy")),
                                io::read_npy(npy_path("f4_le.npy")), 0.0);
        ATTNVIZ_COMPARE_TENSORS(io::read_npy(npy_path("fortran_f8_be_4x3.npy")), transpose2d(c34),
                                0.0);
    }

    void readsFormatVersionsAndHeaderVariants_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"v2_f4.npy", "v3_f4.npy", "hdr_reordered.npy", "hdr_spaces.npy",
                              "hdr_align16.npy", "hdr_py2_long.npy"})
            QTest::newRow(f) << QString(f);
    }
    void readsFormatVersionsAndHeaderVariants() {
        QFETCH(QString, file);
        ATTNVIZ_COMPARE_TENSORS(io::read_npy(npy_path(file.toStdString())),
                                io::read_npy(npy_path("c_f4_3x4.npy")), 0.0);
    }

    void readsZeroDimensionalAndEmptyArrays() {
        const Tensor scalar = io::read_npy(npy_path("shape_0d.npy"));
        QCOMPARE(scalar.shape, Shape{});
        QCOMPARE(scalar.data, std::vector<float>{2.5f});
        const Tensor one = io::read_npy(npy_path("shape_1.npy"));
        QCOMPARE(one.shape, Shape{1});
        QCOMPARE(one.data, std::vector<float>{-7.25f});
        const Tensor empty = io::read_npy(npy_path("shape_0.npy"));
        QCOMPARE(empty.shape, Shape{0});
        QVERIFY(empty.empty());
        const Tensor empty3 = io::read_npy(npy_path("shape_2x0x3.npy"));
        QCOMPARE(empty3.shape, Shape({2, 0, 3}));
        QVERIFY(empty3.empty());
    }

    void readsHeaderOnly() {
        const io::NpyInfo f8 = io::read_npy_info(npy_path("f8_be.npy"));
        QVERIFY(f8.dtype == io::NpyDtype::Float64);
        QVERIFY(io::read_npy_info(npy_path("f2_zeros.npy")).dtype == io::NpyDtype::Float16);
        QCOMPARE(io::read_npy(npy_path("f2_zeros.npy")).data, std::vector<float>(3, 0.0f));
        QCOMPARE(f8.shape, Shape({2, 3, 4}));
        QVERIFY(io::read_npy_info(npy_path("mask_b1.npy")).dtype == io::NpyDtype::Bool);
        QVERIFY(io::read_npy_info(npy_path("mask_u1.npy")).dtype == io::NpyDtype::UInt8);
        QVERIFY(io::read_npy_info(npy_path("mask_i1.npy")).dtype == io::NpyDtype::Int8);
        QVERIFY(io::read_npy_info(npy_path("mask_i4.npy")).dtype == io::NpyDtype::Int32);
        QVERIFY(io::read_npy_info(npy_path("mask_i8.npy")).dtype == io::NpyDtype::Int64);
        QCOMPARE(io::read_npy_info(npy_path("numpy_f4_big_dim_empty.npy")).shape,
                 Shape({1000000000000, 0}));
        // The header is still checked against the file's size.
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy_info(npy_path("bad_huge_shape.npy")),
                                  "header claims");
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy_info(npy_path("bad_trailing_data.npy")),
                                  "trailing data");
    }

    // The writer reproduces np.save byte for byte.
    void serializeMatchesNumpy_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"numpy_f4_2x3x4.npy", "numpy_f4_0d.npy", "numpy_f4_0.npy", "numpy_f4_1.npy",
              "numpy_f4_big_dim_empty.npy", "numpy_f4_1x1x1x1x1x1x1x1.npy", "numpy_f4_special.npy",
              "numpy_b1_3x5.npy"})
            QTest::newRow(f) << QString(f);
    }
    void serializeMatchesNumpy() {
        QFETCH(QString, file);
        const std::string path = npy_path(file.toStdString());
        const std::string expected = io::read_file(path);
        const std::string actual = file.contains("_b1_")
                                       ? io::serialize_npy_bool(io::read_npy_mask(path))
                                       : io::serialize_npy(io::read_npy(path));
        QCOMPARE(QByteArray::fromStdString(actual), QByteArray::fromStdString(expected));
    }

    void headerIsPaddedTo64Bytes() {
        for (std::size_t rank = 0; rank <= 40; ++rank) {
            const Shape shape(rank, 1);
            const std::string bytes = io::serialize_npy(Tensor(shape, 1.0f));
            const std::size_t data_start = bytes.size() - 4;
            QCOMPARE(data_start % 64, std::size_t(0));
            QCOMPARE(bytes[data_start - 1], '\n');
            QCOMPARE(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
        }
    }

    // Headers longer than read_npy_info's first read, and longer than version 1.0 can hold
    // (numpy then writes 2.0, and so do we).
    void longHeaders() {
        const std::string dir = test::fresh_dir("long_headers");
        for (const std::size_t rank : {std::size_t(2000), std::size_t(30000)}) {
            const Shape shape(rank, 1);
            const std::string path = dir + "/long.npy";
            io::write_npy(path, Tensor(shape, 0.5f));
            const std::string bytes = io::read_file(path);
            QCOMPARE(int(bytes[6]), rank < 20000 ? 1 : 2);
            QCOMPARE((bytes.size() - 4) % 64, std::size_t(0));
            QCOMPARE(io::read_npy_info(path).shape, shape);
            const Tensor back = io::read_npy(path);
            QCOMPARE(back.shape, shape);
            QCOMPARE(back.data, std::vector<float>{0.5f});
        }
    }

    void roundTrips_data() {
        QTest::addColumn<Shape>("shape");
        QTest::newRow("0-d") << Shape{};
        QTest::newRow("[0]") << Shape{0};
        QTest::newRow("[1]") << Shape{1};
        QTest::newRow("[7]") << Shape{7};
        QTest::newRow("[2,3,4]") << Shape{2, 3, 4};
        QTest::newRow("[3,0,2]") << Shape{3, 0, 2};
        QTest::newRow("[1,1,1,1]") << Shape{1, 1, 1, 1};
        QTest::newRow("[17,33]") << Shape{17, 33};
    }
    void roundTrips() {
        QFETCH(Shape, shape);
        Tensor t(shape);
        const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::infinity(), -0.0f,
                                  std::numeric_limits<float>::denorm_min(), -1e30f};
        for (std::size_t i = 0; i < t.numel(); ++i)
            t.data[i] = i < std::size(specials) ? specials[i] : std::sin(float(i)) * 3.0f;
        const std::string dir = test::fresh_dir("roundtrip");
        const std::string path = dir + "/t.npy";
        io::write_npy(path, t);
        const Tensor back = io::read_npy(path);
        QCOMPARE(back.shape, shape);
        QVERIFY(same_bits(back.data, t.data));
        QCOMPARE(io::read_npy_info(path).shape, shape);

        std::vector<float> bits(t.numel());
        for (std::size_t i = 0; i < bits.size(); ++i)
            bits[i] = float(i % 3 == 1);
        io::write_npy_bool(path, Mask::boolean(shape, bits));
        QVERIFY(io::read_npy_info(path).dtype == io::NpyDtype::Bool);
        const Mask m = io::read_npy_mask(path);
        QVERIFY(m.is_bool());
        QCOMPARE(m.shape, shape);
        QCOMPARE(m.values, bits);
        QCOMPARE(test::entries(dir), QStringList{"t.npy"});  // no temporary left behind
    }

    void refusesBadFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("empty") << "bad_empty.npy"
                               << "the file is empty";
        QTest::newRow("bad magic") << "bad_magic.npy"
                                   << "not a .npy file";
        QTest::newRow("text") << "bad_text.npy"
                              << "not a .npy file";
        QTest::newRow("short magic") << "bad_magic_short.npy"
                                     << "ends inside the .npy magic";
        QTest::newRow("npz") << "bad_npz.npy"
                             << "zip archive";
        QTest::newRow("version") << "bad_version.npy"
                                 << "unsupported .npy format version 4.0";
        QTest::newRow("truncated preamble") << "bad_truncated_preamble.npy"
                                            << "truncated header";
        QTest::newRow("truncated header")
            << "bad_truncated_header.npy"
            << "truncated header: the header says it is 118 bytes long but the file ends after 40";
        QTest::newRow("header length huge") << "bad_header_length_huge.npy"
                                            << "the header says it is 4294967280 bytes long";
        QTest::newRow("truncated data")
            << "bad_truncated_data.npy"
            << "header claims 24 elements (96 bytes) but the file holds 86 bytes of data";
        QTest::newRow("lying shape")
            << "bad_huge_shape.npy"
            << "header claims 100000000000 elements (400 GB) but the file holds 20 bytes of data";
        QTest::newRow("shape overflow") << "bad_overflow_shape.npy"
                                        << "overflows 64 bits";
        QTest::newRow("bytes overflow") << "bad_bytes_overflow.npy"
                                        << "more than 2^64 bytes";
        QTest::newRow("dimension too large")
            << "bad_dim_too_large.npy"
            << "dimension 99999999999999999999999 in shape is too large";
        QTest::newRow("negative shape") << "bad_negative_shape.npy"
                                        << "negative dimension -1";
        QTest::newRow("garbage shape") << "bad_garbage_shape.npy"
                                       << "shape must be a tuple of integers, found \"'\"";
        QTest::newRow("shape not tuple") << "bad_shape_not_tuple.npy"
                                         << "is not a tuple";
        QTest::newRow("shape list") << "bad_shape_list.npy"
                                    << "shape must be a tuple";
        QTest::newRow("unknown dtype") << "bad_unknown_dtype.npy"
                                       << "unsupported dtype '<c8'";
        QTest::newRow("structured") << "bad_structured.npy"
                                    << "structured dtype";
        QTest::newRow("missing key") << "bad_missing_key.npy"
                                     << "no 'fortran_order'";
        QTest::newRow("extra key") << "bad_extra_key.npy"
                                   << "unexpected key 'x'";
        QTest::newRow("duplicate key") << "bad_duplicate_key.npy"
                                       << "'shape' appears twice";
        QTest::newRow("fortran value") << "bad_fortran_value.npy"
                                       << "fortran_order must be True or False";
        QTest::newRow("not a dict") << "bad_not_dict.npy"
                                    << "the header to start with '{'";
        QTest::newRow("unterminated") << "bad_unterminated.npy"
                                      << "malformed";
        QTest::newRow("trailing data") << "bad_trailing_data.npy"
                                       << "trailing data: 8 bytes after the array data";
    }
    void refusesBadFiles() {
        QFETCH(QString, file);
        QFETCH(QString, phrase);
        const std::string path = npy_path(file.toStdString());
        const std::string p = phrase.toStdString();
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy(path), path + ": ", p);
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy_mask(path), path + ": ", p);
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy_info(path), path + ": ", p);
        ATTNVIZ_EXPECT_DATA_ERROR(io::parse_npy(io::read_file(path), "Q.npy"), "Q.npy: ", p);
    }

    void reportsMissingAndUnreadableFiles() {
        const std::string missing = test::temp_dir() + "/no/such/Q.npy";
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy(missing),
                                  "cannot open '" + missing + "': No such file or directory");
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy_info(missing), "cannot open '" + missing + "'");
        const std::string folder = test::fresh_dir("a_folder.npy");
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy(folder),
                                  "cannot read '" + folder + "': Is a directory");
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_file(folder), "Is a directory");
        if (::geteuid() != 0) {  // root reads anything
            const std::string locked = test::fresh_dir("locked") + "/Q.npy";
            write_bytes(locked, io::serialize_npy(Tensor({2}, 1.0f)));
            ::chmod(locked.c_str(), 0);
            ATTNVIZ_EXPECT_DATA_ERROR(io::read_npy(locked),
                                      "cannot open '" + locked + "': Permission denied");
        }
    }

    void readFileHonoursTheSizeLimit() {
        const std::string path = npy_path("f4_le.npy");
        const std::string all = io::read_file(path);
        QCOMPARE(io::read_file(path, all.size()), all);
        ATTNVIZ_EXPECT_DATA_ERROR(io::read_file(path, all.size() - 1), path, "limit");
        const io::FileHead head = io::read_file_head(path, 10);
        QCOMPARE(head.bytes, all.substr(0, 10));
        QCOMPARE(head.file_size, std::uint64_t(all.size()));
    }

    void formatsByteSizes() {
        QCOMPARE(io::format_byte_size(0), std::string("0 bytes"));
        QCOMPARE(io::format_byte_size(1), std::string("1 byte"));
        QCOMPARE(io::format_byte_size(999), std::string("999 bytes"));
        QCOMPARE(io::format_byte_size(1500), std::string("1.5 kB"));
        QCOMPARE(io::format_byte_size(400000000000ull), std::string("400 GB"));
        QCOMPARE(io::format_byte_size(std::numeric_limits<std::uint64_t>::max()),
                 std::string("18.45 EB"));
    }

    // ---- atomic writes

    void writeToMissingFolderCreatesNothing() {
        const std::string dir = test::fresh_dir("missing");
        const std::string path = dir + "/out/A.npy";
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_npy(path, Tensor({2, 2}, 1.0f)),
                                  "cannot write '" + path + "': No such file or directory");
        QVERIFY(test::entries(dir).isEmpty());
    }

    void writeOverAFolderLeavesItAlone() {
        const std::string dir = test::fresh_dir("over_folder");
        const std::string path = dir + "/A.npy";
        QDir().mkpath(QString::fromStdString(path));
        write_bytes(path + "/keep.txt", "keep");
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_npy(path, Tensor({2}, 1.0f)),
                                  "cannot write '" + path + "': Is a directory");
        QCOMPARE(test::entries(dir), QStringList{"A.npy"});
        QCOMPARE(io::read_file(path + "/keep.txt"), std::string("keep"));
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_npy(dir + "/", Tensor({2}, 1.0f)), "names a folder");
    }

    void failedWriteKeepsTheOriginal() {
        const std::string dir = test::fresh_dir("keep_original");
        const std::string path = dir + "/A.npy";
        io::write_npy(path, Tensor({3}, 7.0f));
        const std::string original = io::read_file(path);

        // A tensor that cannot be written: nothing is touched.
        Tensor broken({2, 3}, 1.0f);
        broken.data.pop_back();
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_npy(path, broken), "cannot write '" + path + "'",
                                  "shape [2,3] needs 6 values but there are 5");
        QCOMPARE(io::read_file(path), original);
        QCOMPARE(test::entries(dir), QStringList{"A.npy"});

        // The disk "fills up" half way through: RLIMIT_FSIZE makes write() fail with EFBIG,
        // even for root.
        struct rlimit old {};
        QVERIFY(::getrlimit(RLIMIT_FSIZE, &old) == 0);
        struct rlimit small = old;
        small.rlim_cur = 1024;
        auto* const old_handler = ::signal(SIGXFSZ, SIG_IGN);
        QVERIFY(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        std::string message;
        try {
            io::write_npy(path, Tensor({100, 100}, 2.0f));
        } catch (const DataError& e) {
            message = e.what();
        }
        ::setrlimit(RLIMIT_FSIZE, &old);
        ::signal(SIGXFSZ, old_handler);
        QVERIFY2(message.find("cannot write '" + path + "': File too large") != std::string::npos,
                 message.c_str());
        QCOMPARE(io::read_file(path), original);
        QCOMPARE(test::entries(dir), QStringList{"A.npy"});

        // And a good write replaces it.
        io::write_npy(path, Tensor({100, 100}, 2.0f));
        QCOMPARE(io::read_npy(path).shape, Shape({100, 100}));
        QCOMPARE(test::entries(dir), QStringList{"A.npy"});
    }

    void writtenFilesGetOrdinaryPermissions() {
        const std::string dir = test::fresh_dir("modes");
        const std::string reference = dir + "/reference";
        write_bytes(reference, "x");
        struct stat ref {
        }, st{};
        QVERIFY(::stat(reference.c_str(), &ref) == 0);
        const std::string path = dir + "/new.npy";
        io::write_npy(path, Tensor({1}, 1.0f));
        QVERIFY(::stat(path.c_str(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, ref.st_mode & 07777);  // 0666 minus the umask
        // A replaced file keeps its mode.
        QVERIFY(::chmod(path.c_str(), 0640) == 0);
        io::write_npy(path, Tensor({2}, 1.0f));
        QVERIFY(::stat(path.c_str(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0640));
    }

    void writesRelativePaths() {
        const std::string dir = test::fresh_dir("relative");
        const QString old = QDir::currentPath();
        QVERIFY(QDir::setCurrent(QString::fromStdString(dir)));
        io::write_npy("rel.npy", Tensor({2}, 3.0f));
        const Tensor back = io::read_npy("rel.npy");
        QDir::setCurrent(old);
        QCOMPARE(back.data, std::vector<float>({3.0f, 3.0f}));
        QCOMPARE(test::entries(dir), QStringList{"rel.npy"});
    }

    void writeNpyBoolRefusesFloatMasks() {
        const std::string path = test::fresh_dir("bool") + "/m.npy";
        ATTNVIZ_EXPECT_DATA_ERROR(io::write_npy_bool(path, Mask::additive({2}, {0.0f, 1.0f})),
                                  "cannot write '" + path + "'", "float");
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
    }

    // ---- hostile input: every truncation and many corruptions of real files must end in a
    // value or a DataError, never another exception, a crash or a huge allocation.
    void survivesTruncationAndCorruption() {
        for (const char* file : {"f4_le.npy", "v2_f4.npy", "fortran_f4_2x3x4.npy", "mask_i8.npy"}) {
            const std::string good = io::read_file(npy_path(file));
            const auto attempt = [&](const std::string& bytes) {
                try {
                    (void)io::parse_npy_mask(bytes, "fuzz.npy");
                    (void)io::parse_npy(bytes, "fuzz.npy");
                } catch (const DataError&) {
                } catch (const std::exception& e) {
                    QFAIL(qPrintable(QString("%1: non-DataError %2").arg(file, e.what())));
                }
            };
            for (std::size_t n = 0; n < good.size(); ++n)
                attempt(good.substr(0, n));
            const std::size_t header_end = std::min<std::size_t>(good.size(), 140);
            for (std::size_t i = 0; i < header_end; ++i) {
                for (const unsigned char v : {0x00, 0x01, 0x20, 0x27, 0x28, 0x29, 0x2C, 0x2D, 0x30,
                                              0x39, 0x7B, 0x7D, 0x80, 0xFF}) {
                    std::string bad = good;
                    bad[i] = static_cast<char>(v);
                    attempt(bad);
                }
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestNpy)
#include "test_npy.moc"
