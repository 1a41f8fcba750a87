//===- ManifestTest.cpp - Tests for manifest loading/validation -*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Manifest.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

using namespace memopt::runtime;

namespace {

/// A valid baseline manifest; tests patch one piece at a time.
const char *kValid = R"({
  "format": "memopt-manifest",
  "version": 1,
  "function": "w1",
  "pipeline": "baseline",
  "target": {"chip": "sm_90", "ptx_version": "8.0"},
  "ptx": "w1.baseline.ptx",
  "buffers": [
    {"id": 0, "name": "x", "role": "input", "dtype": "f32", "shape": [4, 8], "bytes": 128},
    {"id": 1, "name": "s", "role": "input", "dtype": "bf16", "shape": [8], "bytes": 16},
    {"id": 2, "name": "y", "role": "output", "dtype": "f16", "shape": [4, 8], "bytes": 64},
    {"id": 3, "name": "tmp", "role": "temp", "dtype": "f32", "shape": [4, 8], "bytes": 128},
    {"id": 4, "name": "view", "role": "alias", "alias_of": 3, "offset_bytes": 64,
     "dtype": "f32", "shape": [2, 8], "bytes": 64}
  ],
  "schedule": [
    {"kind": "launch", "kernel": "k0", "grid": [2, 1, 1], "block": [128, 1, 1],
     "shared_bytes": 0,
     "args": [{"buffer": 0}, {"buffer": 4}, {"i64": 32}, {"i32": -3}, {"f32": 0.5}],
     "bytes_read": 128, "bytes_written": 64},
    {"kind": "copy", "src": 3, "dst": 2, "bytes": 64}
  ],
  "min_bytes": 208,
  "model_bytes": {"read": 192, "written": 128}
})";

Expected<Manifest> parseManifest(const std::string &text,
                                 const std::string &path = "dir/m.json") {
  Expected<json::Value> root = json::parse(text, path);
  if (root.failed())
    return root.error();
  return manifestFromJson(*root, path);
}

/// Replaces the first occurrence of `from` in kValid by `to`.
std::string patched(const std::string &from, const std::string &to) {
  return test::replaceFirst(kValid, from, to);
}

TEST(ManifestTest, LoadsValidManifest) {
  Expected<Manifest> m = parseManifest(kValid);
  ASSERT_TRUE(m.succeeded()) << m.error().message;
  EXPECT_EQ(m->function, "w1");
  EXPECT_EQ(m->ptxFile, "dir/w1.baseline.ptx");
  EXPECT_EQ(m->chip, "sm_90");
  ASSERT_EQ(m->buffers.size(), 5u);
  EXPECT_EQ(m->buffers[1].dtype, DType::BF16);
  EXPECT_EQ(m->numInputs(), 2u);
  EXPECT_EQ(m->numOutputs(), 1u);
  ASSERT_EQ(m->schedule.size(), 2u);
  const Step &launch = m->schedule[0];
  EXPECT_EQ(launch.kernel, "k0");
  EXPECT_EQ(launch.grid[0], 2u);
  EXPECT_EQ(launch.block[0], 128u);
  ASSERT_EQ(launch.args.size(), 5u);
  EXPECT_EQ(launch.args[1].bufferId, 4);
  EXPECT_EQ(launch.args[2].intValue, 32);
  EXPECT_EQ(launch.args[3].kind, KernelArg::Kind::I32);
  EXPECT_EQ(launch.args[3].intValue, -3);
  EXPECT_FLOAT_EQ(launch.args[4].floatValue, 0.5f);
  // A copy counts its bytes as read and written.
  EXPECT_EQ(m->schedule[1].bytesRead, 64);
  EXPECT_EQ(m->schedule[1].bytesWritten, 64);
  EXPECT_EQ(m->scheduleBytesRead(), 192);
  EXPECT_EQ(m->scheduleBytesWritten(), 128);
  int64_t base, offset;
  m->resolve(4, base, offset);
  EXPECT_EQ(base, 3);
  EXPECT_EQ(offset, 64);
  m->resolve(2, base, offset);
  EXPECT_EQ(base, 2);
  EXPECT_EQ(offset, 0);
}

TEST(ManifestTest, LoadsClusterShape) {
  Expected<Manifest> m = parseManifest(
      patched(R"("shared_bytes": 0,)", R"("cluster": [2], "shared_bytes": 0,)"));
  ASSERT_TRUE(m.succeeded()) << m.error().message;
  EXPECT_EQ(m->schedule[0].cluster, (std::array<unsigned, 3>{2, 1, 1}));
  Expected<Manifest> plain = parseManifest(kValid);
  ASSERT_TRUE(plain.succeeded()) << plain.error().message;
  EXPECT_EQ(plain->schedule[0].cluster, (std::array<unsigned, 3>{1, 1, 1}));
  EXPECT_FALSE(plain->schedule[0].persistent);
  Expected<Manifest> persistent = parseManifest(patched(
      R"("shared_bytes": 0,)",
      R"("cluster": [2], "persistent": true, "shared_bytes": 0,)"));
  ASSERT_TRUE(persistent.succeeded()) << persistent.error().message;
  EXPECT_TRUE(persistent->schedule[0].persistent);
}

TEST(ManifestTest, BuffersMayBeListedOutOfOrder) {
  std::string s = kValid;
  // Swap the first two buffer lines: ids stay dense.
  std::string l0 = R"({"id": 0, "name": "x", "role": "input", "dtype": "f32", "shape": [4, 8], "bytes": 128},)";
  std::string l1 = R"({"id": 1, "name": "s", "role": "input", "dtype": "bf16", "shape": [8], "bytes": 16},)";
  s.replace(s.find(l0), l0.size(), l1);
  s.replace(s.rfind(l1), l1.size(), l0);
  Expected<Manifest> m = parseManifest(s);
  ASSERT_TRUE(m.succeeded()) << m.error().message;
  EXPECT_EQ(m->buffers[0].name, "x");
}

struct BadCase {
  const char *from;
  const char *to;
  const char *expect; // substring of the error, which must name the field
};

class ManifestErrorTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(ManifestErrorTest, NamesTheField) {
  const BadCase &c = GetParam();
  Expected<Manifest> m = parseManifest(patched(c.from, c.to));
  ASSERT_TRUE(m.failed()) << "accepted: " << c.to;
  EXPECT_EQ(m.error().kind, ErrorKind::Manifest);
  EXPECT_NE(m.error().message.find(c.expect), std::string::npos)
      << "message: " << m.error().message;
  EXPECT_EQ(m.error().message.rfind("dir/m.json: ", 0), 0u)
      << "message does not start with the file: " << m.error().message;
}

const BadCase kBadCases[] = {
    {R"("format": "memopt-manifest")", R"("format": "other")", "format: expected"},
    {R"("version": 1)", R"("version": 2)", "version: unsupported version 2"},
    {R"("version": 1)", R"("version": "1")", "version: expected number"},
    {R"("function": "w1",)", "", "function: missing required field"},
    {R"("pipeline": "baseline")", R"("pipeline": "fast")", "pipeline: unknown pipeline"},
    {R"("ptx": "w1.baseline.ptx",)", "", "ptx: missing required field"},
    {R"("id": 1, "name": "s")", R"("id": 7, "name": "s")", "buffers[1].id: id 7 is not dense"},
    {R"("id": 1, "name": "s")", R"("id": 0, "name": "s")", "buffers[1].id: duplicate id 0"},
    {R"("id": 1, "name": "s")", R"("id": -1, "name": "s")", "buffers[1].id: value -1 out of range"},
    {R"("role": "temp")", R"("role": "scratch")", "buffers[3].role: unknown role"},
    {R"("dtype": "bf16")", R"("dtype": "f8")", "buffers[1].dtype: unknown dtype 'f8'"},
    {R"("shape": [8], "bytes": 16)", R"("shape": [8], "bytes": 32)",
     "buffers[1].bytes: 32 != prod(shape) * sizeof(bf16) = 16"},
    {R"("shape": [8], "bytes": 16)", R"("shape": [-8], "bytes": 16)", "buffers[1].shape[0]: expected a non-negative"},
    {R"("shape": [8], "bytes": 16)", R"("shape": 8, "bytes": 16)", "buffers[1].shape: expected array"},
    {R"("alias_of": 3)", R"("alias_of": 9)", "alias_of: buffer 9 does not exist"},
    {R"("alias_of": 3)", R"("alias_of": 4)", "alias_of: alias of alias"},
    {R"("offset_bytes": 64)", R"("offset_bytes": 68)", "offset_bytes: view [68, 132) does not fit in buffer 3 of 128 bytes"},
    {R"("offset_bytes": 64)", R"("offset_bytes": 2)", "offset_bytes: offset 2 is not a multiple"},
    {R"("role": "output")", R"("role": "temp")", "buffers: no buffer with role 'output'"},
    {R"("name": "x", "role": "input")", R"("name": "x", "role": "output")", "buffers[id=1].role: 'input' buffer after"},
    {R"({"buffer": 4})", R"({"buffer": 5})", "schedule[0].args[1].buffer: buffer 5 does not exist"},
    {R"({"i32": -3})", R"({"i32": 3000000000})", "schedule[0].args[3].i32: value 3000000000 out of range"},
    {R"({"i32": -3})", R"({"u8": 1})", "schedule[0].args[3].u8: unknown argument kind"},
    {R"({"i32": -3})", R"({"i32": 1, "i64": 2})", "schedule[0].args[3]: expected an object with exactly one"},
    {R"({"f32": 0.5})", R"({"f32": "half"})", "schedule[0].args[4].f32: expected number"},
    {R"("grid": [2, 1, 1])", R"("grid": [0, 1, 1])", "schedule[0].grid[0]: expected a positive"},
    {R"("grid": [2, 1, 1])", R"("grid": [])", "schedule[0].grid: expected 1 to 3 dimensions"},
    {R"("block": [128, 1, 1])", R"("block": [1024, 2, 1])", "schedule[0].block: block has 2048 threads"},
    {R"("shared_bytes": 0,)", R"("cluster": [3, 1, 1], "shared_bytes": 0,)",
     "schedule[0].cluster: cluster dimension 3 does not divide grid dimension 2"},
    {R"("grid": [2, 1, 1], "block": [128, 1, 1],)",
     R"("grid": [32, 1, 1], "block": [128, 1, 1], "cluster": [32, 1, 1],)",
     "schedule[0].cluster: cluster of 32 blocks, more than 16"},
    {R"("shared_bytes": 0,)", R"("cluster": [0, 1, 1], "shared_bytes": 0,)",
     "schedule[0].cluster[0]: expected a positive"},
    {R"("shared_bytes": 0,)", R"("persistent": 1, "shared_bytes": 0,)",
     "schedule[0].persistent: expected bool, got number"},
    {R"("kernel": "k0",)", "", "schedule[0].kernel: missing required field"},
    {R"("bytes_read": 128,)", "", "schedule[0].bytes_read: missing required field"},
    {R"("kind": "launch")", R"("kind": "memset")", "schedule[0].kind: unknown step kind"},
    {R"("src": 3)", R"("src": 12)", "schedule[1].src: buffer 12 does not exist"},
    {R"("dst": 2, "bytes": 64)", R"("dst": 2, "bytes": 65)", "schedule[1].bytes: 65 exceeds destination buffer 2"},
    {R"("dst": 2)", R"("dst": 0)", "schedule[1].dst: copy writes input buffer 0"},
    {R"("min_bytes": 208,)", "", "min_bytes: missing required field"},
    {R"("model_bytes": {"read": 192, "written": 128})", R"("model_bytes": {"read": 192})",
     "model_bytes.written: missing required field"},
};

INSTANTIATE_TEST_SUITE_P(AllFields, ManifestErrorTest,
                         ::testing::ValuesIn(kBadCases));

TEST(ManifestTest, RejectsUnknownLayout) {
  Expected<Manifest> m = parseManifest(
      patched(R"("shape": [4, 8], "bytes": 64})",
              R"("shape": [4, 8], "bytes": 64, "layout": "soa"})"));
  ASSERT_TRUE(m.failed());
  EXPECT_NE(m.error().message.find("buffers[2].layout"), std::string::npos)
      << m.error().message;
}

TEST(ManifestTest, PackedSubByteInputs) {
  // Buffer 1 as the i8 storage of a [8, 4] i4 tensor (two to a byte).
  const std::string from =
      R"("role": "input", "dtype": "bf16", "shape": [8], "bytes": 16})";
  Expected<Manifest> m = parseManifest(patched(
      from, R"("role": "input", "dtype": "i8", "shape": [8, 2], "bytes": 16,
               "packed": {"dtype": "i4", "shape": [8, 4]}})"));
  ASSERT_TRUE(m.succeeded()) << m.error().message;
  EXPECT_EQ(m->buffers[1].packedBits, 4);
  EXPECT_EQ(m->buffers[1].packedShape, (std::vector<int64_t>{8, 4}));
  // Its fill is uniformly random bytes: high nibbles other than 0 and 15.
  std::vector<std::vector<unsigned char>> in = makeInputs(*m, 1);
  bool highNibble = false;
  for (unsigned char c : in[1])
    highNibble |= (c >> 4) != 0 && (c >> 4) != 15;
  EXPECT_TRUE(highNibble);
  // A logical shape that does not pack into the storage, and a packed
  // buffer that is not i8, are refused naming the field.
  for (const char *bad :
       {R"("role": "input", "dtype": "i8", "shape": [8, 2], "bytes": 16,
           "packed": {"dtype": "i4", "shape": [8, 5]}})",
        R"("role": "input", "dtype": "i8", "shape": [8, 2], "bytes": 16,
           "packed": {"dtype": "i3", "shape": [8, 4]}})",
        R"("role": "input", "dtype": "i16", "shape": [8], "bytes": 16,
           "packed": {"dtype": "i4", "shape": [8, 4]}})"}) {
    Expected<Manifest> b = parseManifest(patched(from, bad));
    ASSERT_TRUE(b.failed()) << bad;
    EXPECT_NE(b.error().message.find("buffers[1].packed"), std::string::npos)
        << b.error().message;
  }
}

TEST(ManifestTest, ReferenceManifestRules) {
  std::string ref = patched(R"("pipeline": "baseline")", R"("pipeline": "reference")");
  // Still has ptx, temp buffers and a schedule: library is missing first.
  Expected<Manifest> m = parseManifest(ref);
  ASSERT_TRUE(m.failed());
  EXPECT_NE(m.error().message.find("library: missing required field"),
            std::string::npos)
      << m.error().message;
}

TEST(ManifestTest, MissingFileIsNamed) {
  Expected<Manifest> m = loadManifest("/nonexistent/dir/w9.baseline.json");
  ASSERT_TRUE(m.failed());
  EXPECT_EQ(m.error().kind, ErrorKind::Manifest);
  EXPECT_NE(m.error().message.find("/nonexistent/dir/w9.baseline.json"),
            std::string::npos);
}

TEST(ManifestTest, SyntaxErrorIsNamed) {
  std::string dir = test::makeTempDir();
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(test::writeTextFile(dir + "/bad.json", "{\"format\": }"));
  Expected<Manifest> m = loadManifest(dir + "/bad.json");
  ASSERT_TRUE(m.failed());
  EXPECT_NE(m.error().message.find(dir + "/bad.json:1:12:"),
            std::string::npos)
      << m.error().message;
}

TEST(ManifestTest, CompatibilityChecksInputsAndOutputs) {
  Expected<Manifest> a = parseManifest(kValid, "a.json");
  ASSERT_TRUE(a.succeeded());
  // Temps may differ freely.
  Expected<Manifest> b = parseManifest(
      patched(R"("name": "tmp", "role": "temp", "dtype": "f32", "shape": [4, 8], "bytes": 128},
    {"id": 4, "name": "view", "role": "alias", "alias_of": 3, "offset_bytes": 64,
     "dtype": "f32", "shape": [2, 8], "bytes": 64})",
              R"("name": "tmp", "role": "temp", "dtype": "f32", "shape": [4, 8], "bytes": 128},
    {"id": 4, "name": "view", "role": "alias", "alias_of": 3, "offset_bytes": 0,
     "dtype": "f32", "shape": [32], "bytes": 128})"),
      "b.json");
  ASSERT_TRUE(b.succeeded()) << b.error().message;
  EXPECT_TRUE(checkCompatible(*a, *b).succeeded());

  Expected<Manifest> c = parseManifest(
      patched(R"("dtype": "f16", "shape": [4, 8], "bytes": 64)",
              R"("dtype": "f16", "shape": [8, 4], "bytes": 64)"),
      "c.json");
  ASSERT_TRUE(c.succeeded()) << c.error().message;
  Status s = checkCompatible(*a, *c);
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().message,
            "c.json: buffers[id=2].shape: [8,4] vs [4,8] (does not match "
            "a.json)");

  Expected<Manifest> d = parseManifest(
      patched(R"("dtype": "f16", "shape": [4, 8], "bytes": 64)",
              R"("dtype": "bf16", "shape": [4, 8], "bytes": 64)"),
      "d.json");
  ASSERT_TRUE(d.succeeded());
  s = checkCompatible(*a, *d);
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.error().message.find("buffers[id=2].dtype: bf16 vs f16"),
            std::string::npos);
}

TEST(ManifestTest, DTypeTable) {
  DType t;
  ASSERT_TRUE(parseDType("bf16", t));
  EXPECT_EQ(dtypeSize(t), 2u);
  EXPECT_TRUE(isFloat(t));
  ASSERT_TRUE(parseDType("i1", t));
  EXPECT_EQ(dtypeSize(t), 1u);
  ASSERT_TRUE(parseDType("f64", t));
  EXPECT_EQ(dtypeSize(t), 8u);
  EXPECT_FALSE(parseDType("float", t));
}

} // namespace
