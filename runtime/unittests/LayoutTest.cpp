//===- LayoutTest.cpp - Tests for AoS-to-SoA layout conversion --*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// Tests the manifest extension for layout-converted arguments and results
// (host_only buffers, derived "aos-field" inputs and outputs, pass-through
// fields, entry_args), the host gather and scatter, the
// compatibility check against a plain AoS reference, and memopt-cpu-diff and
// memopt-run end to end on a tiny AoS/SoA workload (test reference library
// and fake driver).
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/HostData.h"
#include "memopt-runtime/Json.h"
#include "memopt-runtime/Manifest.h"
#include "memopt-runtime/Reference.h"

#include "TestUtil.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace memopt::runtime;
using namespace memopt::runtime::test;

namespace {

/// W6 in miniature: p: f32[16, 8] is replaced by its fields 3..6.
const char *kLayoutValid = R"({
  "format": "memopt-manifest",
  "version": 1,
  "function": "w6",
  "pipeline": "optimized",
  "ptx": "w6.optimized.ptx",
  "buffers": [
    {"id": 0, "name": "arg0", "role": "input", "dtype": "f32", "shape": [16, 8], "bytes": 512, "host_only": true},
    {"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [16], "bytes": 64},
    {"id": 2, "name": "arg0.f3", "role": "input", "dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 3}},
    {"id": 3, "name": "arg0.f4", "role": "input", "dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 4}},
    {"id": 4, "name": "arg0.f5", "role": "input", "dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 5}},
    {"id": 5, "name": "arg0.f6", "role": "input", "dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 6}},
    {"id": 6, "name": "tmp0", "role": "temp", "dtype": "f32", "shape": [16], "bytes": 64}
  ],
  "schedule": [
    {"kind": "launch", "kernel": "k0", "grid": [1, 1, 1], "block": [16, 1, 1],
     "args": [{"buffer": 2}, {"buffer": 3}, {"buffer": 4}, {"buffer": 5}, {"buffer": 6}],
     "bytes_read": 256, "bytes_written": 64},
    {"kind": "copy", "src": 6, "dst": 1, "bytes": 64}
  ],
  "min_bytes": 320,
  "model_bytes": {"read": 320, "written": 128}
})";

/// The same function as a host library (optimized-host) with entry_args.
const char *kHostValid = R"({
  "format": "memopt-manifest",
  "version": 1,
  "function": "w6",
  "pipeline": "optimized-host",
  "library": "w6.optimized-host.so",
  "symbol": "w6",
  "buffers": [
    {"id": 0, "name": "arg0", "role": "input", "dtype": "f32", "shape": [16, 8], "bytes": 512, "host_only": true},
    {"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [16], "bytes": 64},
    {"id": 2, "name": "arg0.f3", "role": "input", "dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 3}},
    {"id": 3, "name": "arg0.f4", "role": "input", "dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 4}}
  ],
  "schedule": [],
  "min_bytes": 192,
  "entry_args": [3, 1, 2]
})";

/// The plain AoS reference of the same function.
const char *kPlainReference = R"({
  "format": "memopt-manifest",
  "version": 1,
  "function": "w6",
  "pipeline": "reference",
  "library": "w6.reference.so",
  "symbol": "w6",
  "buffers": [
    {"id": 0, "name": "arg0", "role": "input", "dtype": "f32", "shape": [16, 8], "bytes": 512},
    {"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [16], "bytes": 64}
  ],
  "schedule": [],
  "min_bytes": 576
})";

Expected<Manifest> parseManifest(const std::string &text,
                                 const std::string &path = "dir/m.json") {
  Expected<json::Value> root = json::parse(text, path);
  if (root.failed())
    return root.error();
  return manifestFromJson(*root, path);
}


TEST(LayoutManifestTest, ParsesHostOnlyAndDerived) {
  Expected<Manifest> m = parseManifest(kLayoutValid);
  ASSERT_TRUE(m.succeeded()) << m.error().message;
  ASSERT_EQ(m->buffers.size(), 7u);
  EXPECT_TRUE(m->buffers[0].hostOnly);
  EXPECT_FALSE(m->buffers[0].isDerived());
  EXPECT_FALSE(m->buffers[0].isAllocated());
  EXPECT_TRUE(m->buffers[0].isSignature());
  EXPECT_FALSE(m->buffers[1].hostOnly);
  const Buffer &f5 = m->buffers[4];
  ASSERT_TRUE(f5.isDerived());
  EXPECT_EQ(f5.derived.kind, DerivedInfo::Kind::AosField);
  EXPECT_EQ(f5.derived.source, 0);
  EXPECT_EQ(f5.derived.record, 8);
  EXPECT_EQ(f5.derived.field, 5);
  EXPECT_FALSE(f5.isSignature());
  EXPECT_TRUE(f5.isAllocated());
  EXPECT_EQ(m->numInputs(), 1u); // signature inputs only
  EXPECT_EQ(m->numOutputs(), 1u);
  EXPECT_EQ(m->numDerived(), 4u);
  EXPECT_TRUE(m->entryArgs.empty());
}

TEST(LayoutManifestTest, EntryArgs) {
  Expected<Manifest> h = parseManifest(kHostValid);
  ASSERT_TRUE(h.succeeded()) << h.error().message;
  EXPECT_EQ(h->entryArgs, (std::vector<int64_t>{3, 1, 2}));
  EXPECT_EQ(h->hostEntryArgs(), (std::vector<int64_t>{3, 1, 2}));
  // Default: inputs that are not host-only (derived ones included), then
  // outputs, each in id order.
  Expected<Manifest> d = parseManifest(
      replaceFirst(kHostValid, R"(,
  "entry_args": [3, 1, 2])",
            ""));
  ASSERT_TRUE(d.succeeded()) << d.error().message;
  EXPECT_TRUE(d->entryArgs.empty());
  EXPECT_EQ(d->hostEntryArgs(), (std::vector<int64_t>{2, 3, 1}));
  Expected<Manifest> r = parseManifest(kPlainReference);
  ASSERT_TRUE(r.succeeded()) << r.error().message;
  EXPECT_EQ(r->hostEntryArgs(), (std::vector<int64_t>{0, 1}));
}

struct LayoutBadCase {
  bool host; // patch kHostValid instead of kLayoutValid
  const char *from;
  const char *to;
  const char *expect;
};

class LayoutManifestErrorTest
    : public ::testing::TestWithParam<LayoutBadCase> {};

TEST_P(LayoutManifestErrorTest, NamesTheField) {
  const LayoutBadCase &c = GetParam();
  Expected<Manifest> m =
      parseManifest(replaceFirst(c.host ? kHostValid : kLayoutValid, c.from, c.to));
  ASSERT_TRUE(m.failed()) << "accepted: " << c.to;
  EXPECT_EQ(m.error().kind, ErrorKind::Manifest);
  EXPECT_NE(m.error().message.find(c.expect), std::string::npos)
      << "message: " << m.error().message;
  EXPECT_EQ(m.error().message.rfind("dir/m.json: ", 0), 0u)
      << m.error().message;
}

const LayoutBadCase kLayoutBadCases[] = {
    // host_only
    {false, R"("shape": [16], "bytes": 64},
    {"id": 2)",
     R"("shape": [16], "bytes": 64, "host_only": true},
    {"id": 2)",
     "buffers[id=1].host_only: no derived output is part of this output"},
    {false, R"("host_only": true)", R"("host_only": 1)",
     "buffers[0].host_only: expected bool, got number"},
    {false, R"({"buffer": 2}, {"buffer": 3})", R"({"buffer": 0}, {"buffer": 3})",
     "schedule[0].args[0].buffer: buffer 0 is host_only"},
    {false, R"("src": 6)", R"("src": 0)",
     "schedule[1].src: buffer 0 is host_only"},
    // derived
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "soa", "source": 0, "record": 8, "field": 3)",
     "buffers[2].derived.kind: unknown derivation 'soa'"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 9, "record": 8, "field": 3)",
     "buffers[id=2].derived.source: buffer 9 does not exist"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 1, "record": 8, "field": 3)",
     "buffers[id=2].derived.source: buffer 1 is not a (non-derived) input"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 4)",
     R"("kind": "aos-field", "source": 2, "record": 1, "field": 0)",
     "buffers[id=3].derived.source: buffer 2 is not a (non-derived) input"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 6, "record": 1, "field": 0)",
     "buffers[id=2].derived.source: buffer 6 is not a (non-derived) input"},
    {false,
     R"("dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 3})",
     R"("dtype": "f16", "shape": [16], "bytes": 32, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 3})",
     "buffers[id=2].derived.source: source dtype f32 differs from this "
     "buffer's f16"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 0, "record": 4, "field": 3)",
     "buffers[id=2].derived.record: source buffer 0 has 128 elements, "
     "expected numElements * record = 16 * 4"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 0, "record": 8, "field": 8)",
     "buffers[2].derived.field: field 8 out of range"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 0, "record": 8, "field": -1)",
     "buffers[2].derived.field: value -1 out of range"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 0, "record": 0, "field": 0)",
     "buffers[2].derived.record: value 0 out of range"},
    {false, R"("kind": "aos-field", "source": 0, "record": 8, "field": 3)",
     R"("kind": "aos-field", "source": 0, "field": 3)",
     "buffers[2].derived.record: missing required field"},
    {false, R"("derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 3})",
     R"("derived": [0, 8, 3])", "buffers[2].derived: expected object"},
    {false, R"("derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 3})",
     R"("host_only": true, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 3})",
     "buffers[2].derived: a derived buffer cannot be host_only"},
    {false, R"("role": "output", "dtype": "f32", "shape": [16], "bytes": 64})",
     R"("role": "output", "dtype": "f32", "shape": [16], "bytes": 64, "derived": {"kind": "aos-field", "source": 0, "record": 8, "field": 0}})",
     "buffers[id=1].derived.source: buffer 0 is not a host-only "
     "(non-derived) output"},
    // entry_args
    {false, R"("min_bytes": 320,)", R"("min_bytes": 320, "entry_args": [2, 1],)",
     "entry_args: only host pipelines"},
    {true, R"("entry_args": [3, 1, 2])", R"("entry_args": [3, 2])",
     "entry_args: output buffer 1 is missing"},
    {true, R"("entry_args": [3, 1, 2])", R"("entry_args": [0, 1, 2])",
     "entry_args[0]: buffer 0 is host_only"},
    {true, R"("entry_args": [3, 1, 2])", R"("entry_args": [3, 1, 3])",
     "entry_args[2]: buffer 3 listed twice"},
    {true, R"("entry_args": [3, 1, 2])", R"("entry_args": [3, 1, 4])",
     "entry_args[2]: expected a buffer id in [0, 4)"},
    {true, R"("entry_args": [3, 1, 2])", R"("entry_args": [3, "1", 2])",
     "entry_args[1]: expected a buffer id"},
    {true, R"("entry_args": [3, 1, 2])", R"("entry_args": 3)",
     "entry_args: expected array, got number"},
};

INSTANTIATE_TEST_SUITE_P(AllFields, LayoutManifestErrorTest,
                         ::testing::ValuesIn(kLayoutBadCases));

/// A record result split by memopt-aos-to-soa: res0 = f32[4, 3] of which
/// field 1 is computed (res0.f1) and fields 0 and 2 are copies of fields 2
/// and 0 of arg0 = f32[4, 3].
const char *kResultLayoutValid = R"({
  "format": "memopt-manifest",
  "version": 1,
  "function": "upd",
  "pipeline": "optimized-host",
  "library": "upd.so",
  "symbol": "upd",
  "buffers": [
    {"id": 0, "name": "arg0", "role": "input", "dtype": "f32", "shape": [4, 3], "bytes": 48},
    {"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [4, 3], "bytes": 48, "host_only": true,
     "pass_through": [{"field": 0, "source": 0, "source_field": 2}, {"field": 2, "source": 0, "source_field": 0}]},
    {"id": 2, "name": "res0.f1", "role": "output", "dtype": "f32", "shape": [4], "bytes": 16, "derived": {"kind": "aos-field", "source": 1, "record": 3, "field": 1}}
  ],
  "entry_args": [0, 2],
  "schedule": [],
  "min_bytes": 64
})";

TEST(LayoutManifestTest, DerivedOutputsAreScatteredIntoTheRecords) {
  Expected<Manifest> m = parseManifest(kResultLayoutValid);
  ASSERT_TRUE(m.succeeded()) << m.error().message;
  EXPECT_EQ(m->numOutputs(), 1u);
  EXPECT_EQ(m->numDerived(), 0u);
  EXPECT_EQ(m->numDerivedOutputs(), 1u);
  EXPECT_TRUE(m->buffers[1].isSignature());
  EXPECT_FALSE(m->buffers[1].isAllocated());
  EXPECT_FALSE(m->buffers[2].isSignature());
  ASSERT_EQ(m->buffers[1].passThrough.size(), 2u);
  EXPECT_EQ(m->buffers[1].passThrough[0].sourceField, 2);
  std::vector<std::vector<unsigned char>> bufs(3);
  std::vector<float> in(12), field = {10, 11, 12, 13};
  for (int i = 0; i < 12; ++i)
    in[i] = static_cast<float>(i);
  bufs[0].assign(reinterpret_cast<unsigned char *>(in.data()),
                 reinterpret_cast<unsigned char *>(in.data() + 12));
  bufs[2].assign(reinterpret_cast<unsigned char *>(field.data()),
                 reinterpret_cast<unsigned char *>(field.data() + 4));
  int64_t bytes = 0;
  ASSERT_TRUE(assembleOutputs(*m, bufs, &bytes).succeeded());
  EXPECT_EQ(bytes, 48);
  ASSERT_EQ(bufs[1].size(), 48u);
  const float *r = reinterpret_cast<const float *>(bufs[1].data());
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(r[i * 3 + 0], in[i * 3 + 2]) << i;
    EXPECT_EQ(r[i * 3 + 1], field[i]) << i;
    EXPECT_EQ(r[i * 3 + 2], in[i * 3 + 0]) << i;
  }
  // A missing host copy of the derived output is an error naming it.
  bufs[2].clear();
  Status s = assembleOutputs(*m, bufs);
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.error().message.find("buffers[id=2]: host copy has 0 bytes"),
            std::string::npos)
      << s.error().message;
}

TEST(LayoutManifestTest, RecordOutputFieldsAreCoveredOnce) {
  // Field 0 twice (pass-through and derived), field 2 not at all.
  Expected<Manifest> m = parseManifest(replaceFirst(
      kResultLayoutValid, R"({"field": 2, "source": 0, "source_field": 0})",
      R"({"field": 1, "source": 0, "source_field": 0})"));
  ASSERT_TRUE(m.failed());
  EXPECT_NE(m.error().message.find("buffers[id=1].host_only: field 1 is given "
                                   "by 2 derived outputs and pass-through "
                                   "entries"),
            std::string::npos)
      << m.error().message;
  // Pass-through from a buffer of another shape.
  m = parseManifest(replaceFirst(kResultLayoutValid,
                                 R"("source": 0, "source_field": 2)",
                                 R"("source": 2, "source_field": 2)"));
  ASSERT_TRUE(m.failed());
  EXPECT_NE(m.error().message.find("buffers[id=1].pass_through: buffer 2 is "
                                   "not a signature input"),
            std::string::npos)
      << m.error().message;
}

TEST(LayoutManifestTest, DerivedInputsFollowTheOutputs) {
  std::string text = replaceFirst(kLayoutValid, R"({"id": 1, "name": "res0")",
                           R"({"id": 2, "name": "res0")");
  std::string from = R"({"id": 2, "name": "arg0.f3")";
  text.replace(text.find(from), from.size(), R"({"id": 1, "name": "arg0.f3")");
  Expected<Manifest> m = parseManifest(text);
  ASSERT_TRUE(m.failed());
  EXPECT_NE(m.error().message.find(
                "buffers[id=2].role: 'output' buffer after a later role"),
            std::string::npos)
      << m.error().message;
}

TEST(LayoutManifestTest, AliasOfHostOnlyIsRejected) {
  Expected<Manifest> m = parseManifest(replaceFirst(
      kLayoutValid,
      R"({"id": 6, "name": "tmp0", "role": "temp", "dtype": "f32", "shape": [16], "bytes": 64})",
      R"({"id": 6, "name": "view", "role": "alias", "alias_of": 0, "dtype": "f32", "shape": [16], "bytes": 64})"));
  ASSERT_TRUE(m.failed());
  EXPECT_NE(m.error().message.find(
                "buffers[id=6].alias_of: buffer 0 is host_only"),
            std::string::npos)
      << m.error().message;
}

TEST(LayoutManifestTest, CompatibleWithPlainReference) {
  Expected<Manifest> ref = parseManifest(kPlainReference, "r.json");
  Expected<Manifest> opt = parseManifest(kLayoutValid, "o.json");
  Expected<Manifest> host = parseManifest(kHostValid, "h.json");
  ASSERT_TRUE(ref.succeeded()) << ref.error().message;
  ASSERT_TRUE(opt.succeeded());
  ASSERT_TRUE(host.succeeded());
  // host_only differences and derived buffers are not compared.
  EXPECT_TRUE(checkCompatible(*ref, *opt).succeeded());
  EXPECT_TRUE(checkCompatible(*opt, *ref).succeeded());
  EXPECT_TRUE(checkCompatible(*ref, *host).succeeded());
  EXPECT_TRUE(checkCompatible(*host, *opt).succeeded());
  // The signature is still compared.
  Expected<Manifest> bad = parseManifest(
      replaceFirst(kPlainReference, R"("shape": [16, 8], "bytes": 512)",
            R"("shape": [16, 4], "bytes": 256)"),
      "bad.json");
  ASSERT_TRUE(bad.succeeded());
  Status s = checkCompatible(*bad, *opt);
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.error().message, "o.json: buffers[id=0].shape: [16,8] vs "
                               "[16,4] (does not match bad.json)");
  // A reference with two inputs does not match one input plus derived ones.
  Expected<Manifest> two = parseManifest(
      replaceFirst(kPlainReference,
            R"({"id": 1, "name": "res0", "role": "output", "dtype": "f32", "shape": [16], "bytes": 64})",
            R"({"id": 1, "name": "arg1", "role": "input", "dtype": "f32", "shape": [16], "bytes": 64},
    {"id": 2, "name": "res0", "role": "output", "dtype": "f32", "shape": [16], "bytes": 64})"),
      "two.json");
  ASSERT_TRUE(two.succeeded()) << two.error().message;
  s = checkCompatible(*two, *opt);
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.error().message.find("1 inputs vs 2"), std::string::npos)
      << s.error().message;
}

TEST(LayoutHostDataTest, DerivedInputsAreGatheredFromSeededSource) {
  Expected<Manifest> ref = parseManifest(kPlainReference);
  Expected<Manifest> opt = parseManifest(kLayoutValid);
  ASSERT_TRUE(ref.succeeded() && opt.succeeded());
  auto refIn = makeInputs(*ref, 42);
  auto optIn = makeInputs(*opt, 42);
  ASSERT_EQ(optIn.size(), 7u);
  // The host-only source is filled exactly like the reference's input.
  EXPECT_EQ(optIn[0], refIn[0]);
  EXPECT_TRUE(optIn[1].empty());
  EXPECT_TRUE(optIn[6].empty());
  const float *p = reinterpret_cast<const float *>(refIn[0].data());
  for (int id = 2; id <= 5; ++id) {
    ASSERT_EQ(optIn[id].size(), 64u);
    const float *f = reinterpret_cast<const float *>(optIn[id].data());
    int field = id + 1;
    for (int i = 0; i < 16; ++i)
      ASSERT_EQ(f[i], p[i * 8 + field]) << "buffer " << id << " element " << i;
  }
  // computeDerived into a separate destination gives the same bytes.
  std::vector<unsigned char> out;
  ASSERT_TRUE(computeDerived(*opt, opt->buffers[4], refIn[0], out).succeeded());
  EXPECT_EQ(out, optIn[4]);
  // A wrongly sized source, or a non-derived buffer, is an error.
  std::vector<unsigned char> shortSrc(100);
  Status s = computeDerived(*opt, opt->buffers[4], shortSrc, out);
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.error().message.find("buffers[id=4].derived.source: host copy "
                                   "of buffer 0 has 100 bytes, expected 512"),
            std::string::npos)
      << s.error().message;
  EXPECT_TRUE(computeDerived(*opt, opt->buffers[1], refIn[0], out).failed());
}

TEST(LayoutHostDataTest, GatherF16I32AndOddSizes) {
  // f16 (2-byte) records of 3 fields.
  std::vector<uint16_t> h(30);
  for (int i = 0; i < 30; ++i)
    h[i] = floatToHalf(static_cast<float>(i) * 0.5f);
  std::vector<uint16_t> hf(10, 0xFFFF);
  gatherAosField(h.data(), hf.data(), 10, 2, 3, 2);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(halfToFloat(hf[i]), static_cast<float>(i * 3 + 2) * 0.5f);
  // i32 records of 5 fields, field 0.
  std::vector<int32_t> v(25);
  for (int i = 0; i < 25; ++i)
    v[i] = -i;
  std::vector<int32_t> vf(5, 7);
  gatherAosField(v.data(), vf.data(), 5, 4, 5, 0);
  EXPECT_EQ(vf, (std::vector<int32_t>{0, -5, -10, -15, -20}));
  // i8 and i64, record 1 (a plain copy).
  std::vector<int8_t> b = {1, -2, 3}, bf(3);
  gatherAosField(b.data(), bf.data(), 3, 1, 1, 0);
  EXPECT_EQ(bf, b);
  std::vector<int64_t> l = {10, 11, 20, 21}, lf(2);
  gatherAosField(l.data(), lf.data(), 2, 8, 2, 1);
  EXPECT_EQ(lf, (std::vector<int64_t>{11, 21}));
  // Any other element size is copied bytewise.
  std::vector<unsigned char> odd = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<unsigned char> oddf(6);
  gatherAosField(odd.data(), oddf.data(), 2, 3, 2, 1); // 3-byte elements
  EXPECT_EQ(oddf, (std::vector<unsigned char>{4, 5, 6, 10, 11, 12}));
  // Through a manifest: an i32 and an f16 derived buffer.
  const char *text = R"({
  "format": "memopt-manifest", "version": 1, "function": "g",
  "pipeline": "optimized-host", "library": "g.so", "symbol": "g",
  "buffers": [
    {"id": 0, "name": "a", "role": "input", "dtype": "i32", "shape": [6, 2], "bytes": 48, "host_only": true},
    {"id": 1, "name": "b", "role": "input", "dtype": "f16", "shape": [4, 3], "bytes": 24},
    {"id": 2, "name": "out", "role": "output", "dtype": "f32", "shape": [6], "bytes": 24},
    {"id": 3, "name": "a.f1", "role": "input", "dtype": "i32", "shape": [6], "bytes": 24, "derived": {"kind": "aos-field", "source": 0, "record": 2, "field": 1}},
    {"id": 4, "name": "b.f0", "role": "input", "dtype": "f16", "shape": [2, 2], "bytes": 8, "derived": {"kind": "aos-field", "source": 1, "record": 3, "field": 0}}
  ],
  "schedule": [], "min_bytes": 0})";
  Expected<Manifest> m = parseManifest(text);
  ASSERT_TRUE(m.succeeded()) << m.error().message;
  EXPECT_EQ(m->hostEntryArgs(), (std::vector<int64_t>{1, 3, 4, 2}));
  auto in = makeInputs(*m, 3);
  const int32_t *a = reinterpret_cast<const int32_t *>(in[0].data());
  const int32_t *af = reinterpret_cast<const int32_t *>(in[3].data());
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(af[i], a[i * 2 + 1]);
  const uint16_t *bs = reinterpret_cast<const uint16_t *>(in[1].data());
  const uint16_t *bf0 = reinterpret_cast<const uint16_t *>(in[4].data());
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(bf0[i], bs[i * 3]);
}

//===----------------------------------------------------------------------===//
// End to end: memopt-cpu-diff and memopt-run on a 64-record AoS workload.
//===----------------------------------------------------------------------===//


const char *kHead = R"({
  "format": "memopt-manifest",
  "version": 1,
  "function": "aos",
  "target": {"chip": "sm_90", "ptx_version": "8.0"},
)";

/// p: f32[64, 4], out: f32[64]; out[i] = p[i].f1 + 2 * p[i].f2.
const char *kAosBuffers = R"(  "buffers": [
    {"id": 0, "name": "p", "role": "input", "dtype": "f32", "shape": [64, 4], "bytes": 1024},
    {"id": 1, "name": "out", "role": "output", "dtype": "f32", "shape": [64], "bytes": 256}
  ],
)";

/// The SoA form: p is host-only, fields 1 and 2 are derived buffers 2, 3.
const char *kSoaBuffers = R"(  "buffers": [
    {"id": 0, "name": "p", "role": "input", "dtype": "f32", "shape": [64, 4], "bytes": 1024, "host_only": true},
    {"id": 1, "name": "out", "role": "output", "dtype": "f32", "shape": [64], "bytes": 256},
    {"id": 2, "name": "p.f1", "role": "input", "dtype": "f32", "shape": [64], "bytes": 256, "derived": {"kind": "aos-field", "source": 0, "record": 4, "field": 1}},
    {"id": 3, "name": "p.f2", "role": "input", "dtype": "f32", "shape": [64], "bytes": 256, "derived": {"kind": "aos-field", "source": 0, "record": 4, "field": 2}}
  ],
)";

class LayoutToolTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = test::makeTempDir();
    ASSERT_FALSE(dir.empty());
    ASSERT_TRUE(test::writeTextFile(
        dir + "/aos.reference.json",
        std::string(kHead) + R"(  "pipeline": "reference",
  "library": ")" MEMOPT_TEST_REFERENCE_LIB R"(",
  "symbol": "memopt_test_aos_ref",
)" + kAosBuffers + R"(  "schedule": [],
  "min_bytes": 1280
}
)"));
  }
  /// Writes aos.<name>.json, an optimized-host manifest of the SoA form.
  void writeHost(const std::string &name, const std::string &symbol,
                 const std::string &entryArgs) {
    ASSERT_TRUE(test::writeTextFile(
        dir + "/aos." + name + ".json",
        std::string(kHead) + R"(  "pipeline": "optimized-host",
  "library": ")" MEMOPT_TEST_REFERENCE_LIB R"(",
  "symbol": ")" + symbol + R"(",
)" + kSoaBuffers + R"(  "schedule": [],
  "min_bytes": 768,
  "entry_args": )" + entryArgs + R"(
}
)"));
  }
  std::string dir;
};

TEST_F(LayoutToolTest, CpuDiffSoaAgreesWithAosReference) {
  writeHost("opt", "memopt_test_soa_opt", "[1, 3, 2]");
  ToolResult r = runTool(MEMOPT_CPU_DIFF_TOOL, dir + "/aos.reference.json " +
                                                   dir + "/aos.opt.json --seed 7");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("layout conversion (test): 2 derived buffers, 512 "
                          "bytes"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("output out (f32): 64 elements, 0 mismatches"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("PASS"), std::string::npos);
  // Either argument order works: the SoA library may be the reference.
  r = runTool(MEMOPT_CPU_DIFF_TOOL,
              dir + "/aos.opt.json " + dir + "/aos.reference.json");
  EXPECT_EQ(r.exitCode, 0) << r.output;
}

TEST_F(LayoutToolTest, CpuDiffHonoursEntryArgs) {
  // Fields swapped: out = f2 + 2 * f1, which differs from the reference.
  writeHost("swapped", "memopt_test_soa_opt", "[1, 2, 3]");
  ToolResult r = runTool(MEMOPT_CPU_DIFF_TOOL, dir + "/aos.reference.json " +
                                                   dir + "/aos.swapped.json");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("first mismatch at 0"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("FAIL"), std::string::npos);
}

TEST_F(LayoutToolTest, CpuDiffDetectsWrittenDerivedInput) {
  writeHost("clobber", "memopt_test_soa_clobber", "[1, 3, 2]");
  ToolResult r = runTool(MEMOPT_CPU_DIFF_TOOL, dir + "/aos.reference.json " +
                                                   dir + "/aos.clobber.json");
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("input p.f1 (buffer 2) was modified by the test "
                          "library"),
            std::string::npos)
      << r.output;
}

TEST_F(LayoutToolTest, CpuDiffRejectsIncompatibleSignature) {
  writeHost("opt", "memopt_test_soa_opt", "[1, 3, 2]");
  std::string text;
  ASSERT_TRUE(readFile(dir + "/aos.opt.json", text).succeeded());
  // The signature (here the output's shape) is still compared.
  std::string from = R"("role": "output", "dtype": "f32", "shape": [64])";
  text.replace(text.find(from), from.size(),
               R"("role": "output", "dtype": "f32", "shape": [8, 8])");
  ASSERT_TRUE(test::writeTextFile(dir + "/aos.bad.json", text));
  ToolResult r = runTool(MEMOPT_CPU_DIFF_TOOL, dir + "/aos.reference.json " +
                                                   dir + "/aos.bad.json");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("buffers[id=1].shape: [8,8] vs [64]"),
            std::string::npos)
      << r.output;
}

TEST_F(LayoutToolTest, MemoptRunReportsLayoutConversion) {
  ASSERT_TRUE(test::writeTextFile(
      dir + "/aos.baseline.json",
      std::string(kHead) + R"(  "pipeline": "baseline",
  "ptx": "aos.ptx",
)" + kAosBuffers + R"(  "schedule": [
    {"kind": "launch", "kernel": "base_fieldsum", "grid": [1, 1, 1], "block": [64, 1, 1],
     "args": [{"buffer": 0}, {"buffer": 1}, {"i64": 64}, {"i64": 4}, {"i64": 1}, {"i64": 2}],
     "bytes_read": 1024, "bytes_written": 256}
  ],
  "min_bytes": 1280,
  "model_bytes": {"read": 1024, "written": 256}
}
)"));
  ASSERT_TRUE(test::writeTextFile(
      dir + "/aos.optimized.json",
      std::string(kHead) + R"(  "pipeline": "optimized",
  "ptx": "aos.ptx",
)" + kSoaBuffers + R"(  "schedule": [
    {"kind": "launch", "kernel": "opt_soasum", "grid": [1, 1, 1], "block": [64, 1, 1],
     "args": [{"buffer": 2}, {"buffer": 3}, {"buffer": 1}, {"i64": 64}],
     "bytes_read": 512, "bytes_written": 256}
  ],
  "min_bytes": 768,
  "model_bytes": {"read": 512, "written": 256}
}
)"));
  ASSERT_TRUE(test::writeTextFile(
      dir + "/aos.ptx", ".version 8.0\n.target sm_90\n"
                        ".visible .entry base_fieldsum(\n)\n"
                        ".visible .entry opt_soasum(\n)\n"));
  std::string args = "--baseline " + dir + "/aos.baseline.json --optimized " +
                     dir + "/aos.optimized.json --reference " + dir +
                     "/aos.reference.json --cuda-driver '" +
                     MEMOPT_FAKE_DRIVER_LIB + "' --json " + dir +
                     "/out.json --warmup 1 --iters 3 --copy-bytes 1048576";
  ToolResult r = runTool(MEMOPT_RUN_TOOL, args);
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("layout conversion optimized (not in kernel time): "
                          "2 buffers, 0.0 MB, host gather "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  buffer 3 p.f2 <- buffer 0 field 2 of 4: "),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("layout conversion baseline"), std::string::npos);
  EXPECT_NE(r.output.find("RESULT: PASS"), std::string::npos);

  std::string text;
  ASSERT_TRUE(readFile(dir + "/out.json", text).succeeded());
  Expected<json::Value> v = json::parse(text);
  ASSERT_TRUE(v.succeeded());
  const json::Value *pipes = v->find("pipelines");
  ASSERT_TRUE(pipes);
  EXPECT_FALSE(pipes->find("baseline")->find("layout_conversion"));
  const json::Value *opt = pipes->find("optimized");
  const json::Value *lc = opt->find("layout_conversion");
  ASSERT_TRUE(lc);
  EXPECT_EQ(lc->find("bytes")->getInt(), 512);
  ASSERT_TRUE(lc->find("host_ms")->isNumber());
  ASSERT_TRUE(lc->find("upload_ms")->isNumber());
  EXPECT_GE(lc->find("host_ms")->getNumber(), 0.0);
  EXPECT_DOUBLE_EQ(lc->find("total_ms")->getNumber(),
                   lc->find("host_ms")->getNumber() +
                       lc->find("upload_ms")->getNumber());
  const json::Value *bl = lc->find("buffers");
  ASSERT_EQ(bl->size(), 2u);
  EXPECT_EQ(bl->at(0).find("buffer")->getInt(), 2);
  EXPECT_EQ(bl->at(0).find("field")->getInt(), 1);
  EXPECT_EQ(bl->at(1).find("record")->getInt(), 4);
  EXPECT_EQ(bl->at(1).find("bytes")->getInt(), 256);
  EXPECT_TRUE(opt->find("inputs_unchanged")->getBool());
  EXPECT_TRUE(opt->find("total")->find("median_ms")->isNumber());
  EXPECT_EQ(v->find("status")->getString(), "ok");

  // The same run without timing still verifies and reports the conversion.
  r = runTool(MEMOPT_RUN_TOOL, args + " --no-timing");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("layout conversion optimized"), std::string::npos);

  // An optimized kernel bound to the wrong field fails verification.
  ASSERT_TRUE(readFile(dir + "/aos.optimized.json", text).succeeded());
  std::string from = R"({"buffer": 2}, {"buffer": 3})";
  text.replace(text.find(from), from.size(), R"({"buffer": 3}, {"buffer": 2})");
  ASSERT_TRUE(test::writeTextFile(dir + "/aos.optimized.json", text));
  r = runTool(MEMOPT_RUN_TOOL, args);
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL optimized vs reference"), std::string::npos)
      << r.output;
}

} // namespace
