//===- Manifest.cpp - memopt launch manifest loader -------------*- C++ -*-===//
//
// Part of the memopt project.
//
//===----------------------------------------------------------------------===//
//
// This file implements loading and validation of memopt launch manifests.
//
//===----------------------------------------------------------------------===//

#include "memopt-runtime/Manifest.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

using namespace memopt::runtime;

bool memopt::runtime::parseDType(const std::string &name, DType &out) {
  static const struct {
    const char *name;
    DType type;
  } kTable[] = {{"f32", DType::F32}, {"f16", DType::F16},
                {"bf16", DType::BF16}, {"f64", DType::F64},
                {"i8", DType::I8},   {"i16", DType::I16},
                {"i32", DType::I32}, {"i64", DType::I64},
                {"i1", DType::I1}};
  for (const auto &entry : kTable) {
    if (name == entry.name) {
      out = entry.type;
      return true;
    }
  }
  return false;
}

const char *memopt::runtime::dtypeName(DType type) {
  switch (type) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F64:
    return "f64";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::I1:
    return "i1";
  }
  return "?";
}

unsigned memopt::runtime::dtypeSize(DType type) {
  switch (type) {
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
    return 2;
  case DType::I8:
  case DType::I1:
    return 1;
  }
  return 1;
}

bool memopt::runtime::isFloat(DType type) {
  return type == DType::F32 || type == DType::F16 || type == DType::BF16 ||
         type == DType::F64;
}

const char *memopt::runtime::roleName(BufferRole role) {
  switch (role) {
  case BufferRole::Input:
    return "input";
  case BufferRole::Output:
    return "output";
  case BufferRole::Temp:
    return "temp";
  case BufferRole::Alias:
    return "alias";
  }
  return "?";
}

int64_t Buffer::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string Step::label() const {
  if (kind == Kind::Launch)
    return kernel;
  return "copy " + std::to_string(src) + "->" + std::to_string(dst);
}

unsigned Manifest::numInputs() const {
  return static_cast<unsigned>(
      std::count_if(buffers.begin(), buffers.end(), [](const Buffer &b) {
        return b.role == BufferRole::Input && !b.isDerived();
      }));
}

unsigned Manifest::numDerived() const {
  return static_cast<unsigned>(
      std::count_if(buffers.begin(), buffers.end(), [](const Buffer &b) {
        return b.role == BufferRole::Input && b.isDerived();
      }));
}

unsigned Manifest::numDerivedOutputs() const {
  return static_cast<unsigned>(
      std::count_if(buffers.begin(), buffers.end(), [](const Buffer &b) {
        return b.role == BufferRole::Output && b.isDerived();
      }));
}

Manifest Manifest::withVariant(const ReferenceVariant &v) const {
  Manifest m = *this;
  m.libraryFile = v.libraryFile;
  if (!v.symbol.empty())
    m.symbol = v.symbol;
  m.entryArgs = v.entryArgs;
  m.f64Reference.reset();
  m.pairwiseReference.reset();
  m.perturbedReference.reset();
  return m;
}

std::vector<int64_t> Manifest::hostEntryArgs() const {
  if (!entryArgs.empty())
    return entryArgs;
  std::vector<int64_t> ids;
  for (const Buffer &b : buffers)
    if (b.role == BufferRole::Input && !b.hostOnly)
      ids.push_back(b.id);
  for (const Buffer &b : buffers)
    if (b.role == BufferRole::Output && !b.hostOnly)
      ids.push_back(b.id);
  return ids;
}

unsigned Manifest::numOutputs() const {
  return static_cast<unsigned>(
      std::count_if(buffers.begin(), buffers.end(), [](const Buffer &b) {
        return b.role == BufferRole::Output && !b.isDerived();
      }));
}

int64_t Manifest::scheduleBytesRead() const {
  int64_t sum = 0;
  for (const Step &s : schedule)
    sum += s.bytesRead;
  return sum;
}

int64_t Manifest::scheduleBytesWritten() const {
  int64_t sum = 0;
  for (const Step &s : schedule)
    sum += s.bytesWritten;
  return sum;
}

void Manifest::resolve(int64_t id, int64_t &baseId, int64_t &offset) const {
  baseId = id;
  offset = 0;
  // Validation guarantees alias targets are allocated buffers, so one hop.
  const Buffer &b = buffers[static_cast<size_t>(id)];
  if (b.role == BufferRole::Alias) {
    baseId = b.aliasOf;
    offset = b.offsetBytes;
  }
}

Status memopt::runtime::readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return makeError(ErrorKind::Manifest, path + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return makeError(ErrorKind::Manifest, path + ": read error");
  out = ss.str();
  return Status::ok();
}

namespace {
/// Reads typed fields out of a JSON object, producing errors that name the
/// file and the dotted field path.
class FieldReader {
public:
  FieldReader(const std::string &file) : file(file) {}

  Error error(const std::string &field, const std::string &what) const {
    return makeError(ErrorKind::Manifest, file + ": " + field + ": " + what);
  }

  Status get(const json::Value &obj, const std::string &ctx,
             const std::string &key, const json::Value *&out,
             json::Value::Kind kind) const {
    out = obj.find(key);
    std::string field = ctx.empty() ? key : ctx + "." + key;
    if (!out)
      return error(field, "missing required field");
    if (out->getKind() != kind && !(kind == json::Value::Kind::Number &&
                                    out->isNumber()))
      return error(field, std::string("expected ") + json::kindName(kind) +
                              ", got " + json::kindName(out->getKind()));
    return Status::ok();
  }

  Status getString(const json::Value &obj, const std::string &ctx,
                   const std::string &key, std::string &out) const {
    const json::Value *v;
    Status s = get(obj, ctx, key, v, json::Value::Kind::String);
    if (s.failed())
      return s;
    out = v->getString();
    return Status::ok();
  }

  Status getInt(const json::Value &obj, const std::string &ctx,
                const std::string &key, int64_t &out, int64_t minValue,
                int64_t maxValue = std::numeric_limits<int64_t>::max()) const {
    const json::Value *v;
    Status s = get(obj, ctx, key, v, json::Value::Kind::Number);
    if (s.failed())
      return s;
    std::string field = ctx.empty() ? key : ctx + "." + key;
    if (!v->isInt())
      return error(field, "expected an integer");
    out = v->getInt();
    if (out < minValue || out > maxValue)
      return error(field, "value " + std::to_string(out) + " out of range [" +
                              std::to_string(minValue) + ", " +
                              std::to_string(maxValue) + "]");
    return Status::ok();
  }

  Status getDim3(const json::Value &obj, const std::string &ctx,
                 const std::string &key, std::array<unsigned, 3> &out) const {
    const json::Value *v;
    Status s = get(obj, ctx, key, v, json::Value::Kind::Array);
    if (s.failed())
      return s;
    std::string field = ctx + "." + key;
    if (v->size() < 1 || v->size() > 3)
      return error(field, "expected 1 to 3 dimensions, got " +
                              std::to_string(v->size()));
    out = {1, 1, 1};
    for (size_t i = 0; i < v->size(); ++i) {
      const json::Value &d = v->at(i);
      if (!d.isInt() || d.getInt() < 1 || d.getInt() > 0x7fffffff)
        return error(field + "[" + std::to_string(i) + "]",
                     "expected a positive 32-bit integer");
      out[i] = static_cast<unsigned>(d.getInt());
    }
    return Status::ok();
  }

private:
  const std::string &file;
};
} // namespace

static std::string dirName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

static std::string joinPath(const std::string &dir, const std::string &file) {
  if (!file.empty() && file[0] == '/')
    return file;
  // "./" keeps dlopen from searching the library path for a bare name.
  if (dir.empty() || dir == ".")
    return "./" + file;
  return dir + "/" + file;
}

static bool mulOverflows(int64_t a, int64_t b, int64_t &out) {
  return __builtin_mul_overflow(a, b, &out);
}

static Status parseBuffer(const FieldReader &r, const json::Value &jb,
                          const std::string &ctx, Buffer &b) {
  if (!jb.isObject())
    return r.error(ctx, "expected object");
  Status s = r.getInt(jb, ctx, "id", b.id, 0);
  if (s.failed())
    return s;
  if (jb.find("name")) {
    s = r.getString(jb, ctx, "name", b.name);
    if (s.failed())
      return s;
  } else {
    b.name = "buf" + std::to_string(b.id);
  }
  std::string role;
  s = r.getString(jb, ctx, "role", role);
  if (s.failed())
    return s;
  if (role == "input")
    b.role = BufferRole::Input;
  else if (role == "output")
    b.role = BufferRole::Output;
  else if (role == "temp")
    b.role = BufferRole::Temp;
  else if (role == "alias")
    b.role = BufferRole::Alias;
  else
    return r.error(ctx + ".role", "unknown role '" + role +
                                      "' (expected input, output, temp "
                                      "or alias)");
  std::string dtype;
  s = r.getString(jb, ctx, "dtype", dtype);
  if (s.failed())
    return s;
  if (!parseDType(dtype, b.dtype))
    return r.error(ctx + ".dtype", "unknown dtype '" + dtype +
                                       "' (expected f32 f16 bf16 f64 i8 i16 "
                                       "i32 i64 i1)");
  const json::Value *shape;
  s = r.get(jb, ctx, "shape", shape, json::Value::Kind::Array);
  if (s.failed())
    return s;
  int64_t elements = 1;
  for (size_t i = 0; i < shape->size(); ++i) {
    const json::Value &d = shape->at(i);
    std::string field = ctx + ".shape[" + std::to_string(i) + "]";
    if (!d.isInt() || d.getInt() < 0)
      return r.error(field, "expected a non-negative integer (static shape)");
    b.shape.push_back(d.getInt());
    if (mulOverflows(elements, d.getInt(), elements))
      return r.error(ctx + ".shape", "element count overflows int64");
  }
  s = r.getInt(jb, ctx, "bytes", b.bytes, 0);
  if (s.failed())
    return s;
  int64_t expected;
  if (mulOverflows(elements, dtypeSize(b.dtype), expected))
    return r.error(ctx + ".shape", "byte count overflows int64");
  if (b.bytes != expected)
    return r.error(ctx + ".bytes",
                   std::to_string(b.bytes) + " != prod(shape) * sizeof(" +
                       dtype + ") = " + std::to_string(expected));
  if (b.role == BufferRole::Alias) {
    s = r.getInt(jb, ctx, "alias_of", b.aliasOf, 0);
    if (s.failed())
      return s;
    if (jb.find("offset_bytes")) {
      s = r.getInt(jb, ctx, "offset_bytes", b.offsetBytes, 0);
      if (s.failed())
        return s;
    }
  } else if (jb.find("alias_of")) {
    return r.error(ctx + ".alias_of",
                   "only buffers with role 'alias' may have alias_of");
  }
  if (const json::Value *jp = jb.find("packed")) {
    std::string pctx = ctx + ".packed";
    if (!jp->isObject())
      return r.error(pctx, std::string("expected object, got ") +
                               json::kindName(jp->getKind()));
    const json::Value *po = jp;
    if (b.role != BufferRole::Input || b.dtype != DType::I8)
      return r.error(pctx, "only i8 inputs may hold packed elements");
    std::string pdtype;
    s = r.getString(*po, pctx, "dtype", pdtype);
    if (s.failed())
      return s;
    if (pdtype != "i4" && pdtype != "i2")
      return r.error(pctx + ".dtype",
                     "unknown packed dtype '" + pdtype + "' (expected i4 or i2)");
    b.packedBits = pdtype == "i4" ? 4 : 2;
    const json::Value *pshape;
    s = r.get(*po, pctx, "shape", pshape, json::Value::Kind::Array);
    if (s.failed())
      return s;
    for (size_t i = 0; i < pshape->size(); ++i) {
      const json::Value &d = pshape->at(i);
      if (!d.isInt() || d.getInt() < 0)
        return r.error(pctx + ".shape[" + std::to_string(i) + "]",
                       "expected a non-negative integer (static shape)");
      b.packedShape.push_back(d.getInt());
    }
    // The storage is the logical shape with its innermost dim divided by
    // the elements per byte.
    std::vector<int64_t> storage = b.packedShape;
    int64_t perByte = 8 / b.packedBits;
    if (storage.empty() || storage.back() % perByte != 0)
      return r.error(pctx + ".shape", "the innermost dim must be a multiple "
                                      "of " + std::to_string(perByte));
    storage.back() /= perByte;
    if (storage != b.shape)
      return r.error(pctx + ".shape",
                     "does not pack into the buffer's shape (" +
                         std::to_string(perByte) +
                         " elements to a byte along the innermost dim)");
  }
  if (const json::Value *layout = jb.find("layout")) {
    if (!layout->isString() || layout->getString() != "row-major")
      return r.error(ctx + ".layout", "only \"row-major\" is supported by "
                                      "manifest version 1");
  }
  if (const json::Value *ho = jb.find("host_only")) {
    if (!ho->isBool())
      return r.error(ctx + ".host_only", std::string("expected bool, got ") +
                                             json::kindName(ho->getKind()));
    b.hostOnly = ho->getBool();
    if (b.hostOnly && b.role != BufferRole::Input &&
        b.role != BufferRole::Output)
      return r.error(ctx + ".host_only",
                     std::string("only inputs and outputs may be host-only, "
                                 "this buffer is '") +
                         roleName(b.role) + "'");
  }
  if (const json::Value *jd = jb.find("derived")) {
    std::string dctx = ctx + ".derived";
    if (!jd->isObject())
      return r.error(dctx, std::string("expected object, got ") +
                               json::kindName(jd->getKind()));
    if (b.role != BufferRole::Input && b.role != BufferRole::Output)
      return r.error(dctx, std::string("only inputs and outputs may be "
                                       "derived, this buffer is '") +
                               roleName(b.role) + "'");
    if (b.hostOnly)
      return r.error(dctx, "a derived buffer cannot be host_only");
    std::string kind;
    if ((s = r.getString(*jd, dctx, "kind", kind)).failed())
      return s;
    if (kind != "aos-field")
      return r.error(dctx + ".kind", "unknown derivation '" + kind +
                                         "' (expected aos-field)");
    b.derived.kind = DerivedInfo::Kind::AosField;
    if ((s = r.getInt(*jd, dctx, "source", b.derived.source, 0)).failed() ||
        (s = r.getInt(*jd, dctx, "record", b.derived.record, 1)).failed() ||
        (s = r.getInt(*jd, dctx, "field", b.derived.field, 0)).failed())
      return s;
    if (b.derived.field >= b.derived.record)
      return r.error(dctx + ".field",
                     "field " + std::to_string(b.derived.field) +
                         " out of range for a record of " +
                         std::to_string(b.derived.record) +
                         " elements (expected 0 <= field < record)");
  }
  if (const json::Value *jp = jb.find("pass_through")) {
    std::string pctx = ctx + ".pass_through";
    if (!jp->isArray())
      return r.error(pctx, std::string("expected array, got ") +
                               json::kindName(jp->getKind()));
    if (b.role != BufferRole::Output || !b.hostOnly)
      return r.error(pctx, "only host-only outputs have pass-through fields");
    for (size_t i = 0; i < jp->size(); ++i) {
      std::string ectx = pctx + "[" + std::to_string(i) + "]";
      const json::Value &je = jp->at(i);
      if (!je.isObject())
        return r.error(ectx, "expected object");
      PassThroughField f;
      if ((s = r.getInt(je, ectx, "field", f.field, 0)).failed() ||
          (s = r.getInt(je, ectx, "source", f.source, 0)).failed() ||
          (s = r.getInt(je, ectx, "source_field", f.sourceField, 0)).failed())
        return s;
      b.passThrough.push_back(f);
    }
  }
  return Status::ok();
}

static Status parseStep(const FieldReader &r, const json::Value &js,
                        const std::string &ctx, const Manifest &m, Step &st) {
  if (!js.isObject())
    return r.error(ctx, "expected object");
  auto checkBufferId = [&](int64_t id, const std::string &field) -> Status {
    if (id < 0 || id >= static_cast<int64_t>(m.buffers.size()))
      return r.error(field, "buffer " + std::to_string(id) +
                                " does not exist (manifest has " +
                                std::to_string(m.buffers.size()) + " buffers)");
    if (m.buffers[static_cast<size_t>(id)].hostOnly)
      return r.error(field, "buffer " + std::to_string(id) +
                                " is host_only (it has no device allocation)");
    return Status::ok();
  };
  std::string kind;
  Status s = r.getString(js, ctx, "kind", kind);
  if (s.failed())
    return s;
  if (kind == "copy") {
    st.kind = Step::Kind::Copy;
    if ((s = r.getInt(js, ctx, "src", st.src, 0)).failed() ||
        (s = checkBufferId(st.src, ctx + ".src")).failed() ||
        (s = r.getInt(js, ctx, "dst", st.dst, 0)).failed() ||
        (s = checkBufferId(st.dst, ctx + ".dst")).failed() ||
        (s = r.getInt(js, ctx, "bytes", st.copyBytes, 0)).failed())
      return s;
    const Buffer &src = m.buffers[static_cast<size_t>(st.src)];
    const Buffer &dst = m.buffers[static_cast<size_t>(st.dst)];
    if (st.copyBytes > src.bytes)
      return r.error(ctx + ".bytes", std::to_string(st.copyBytes) +
                                         " exceeds source buffer " +
                                         std::to_string(st.src) + " size " +
                                         std::to_string(src.bytes));
    if (st.copyBytes > dst.bytes)
      return r.error(ctx + ".bytes", std::to_string(st.copyBytes) +
                                         " exceeds destination buffer " +
                                         std::to_string(st.dst) + " size " +
                                         std::to_string(dst.bytes));
    if (dst.role == BufferRole::Input)
      return r.error(ctx + ".dst", "copy writes input buffer " +
                                       std::to_string(st.dst));
    st.bytesRead = st.bytesWritten = st.copyBytes;
    if (js.find("bytes_read") &&
        (s = r.getInt(js, ctx, "bytes_read", st.bytesRead, 0)).failed())
      return s;
    if (js.find("bytes_written") &&
        (s = r.getInt(js, ctx, "bytes_written", st.bytesWritten, 0)).failed())
      return s;
    return Status::ok();
  }
  if (kind != "launch")
    return r.error(ctx + ".kind",
                   "unknown step kind '" + kind + "' (expected launch or copy)");
  st.kind = Step::Kind::Launch;
  if ((s = r.getString(js, ctx, "kernel", st.kernel)).failed() ||
      (s = r.getDim3(js, ctx, "grid", st.grid)).failed() ||
      (s = r.getDim3(js, ctx, "block", st.block)).failed())
    return s;
  if (st.kernel.empty())
    return r.error(ctx + ".kernel", "empty kernel name");
  if (st.grid[1] > 65535 || st.grid[2] > 65535)
    return r.error(ctx + ".grid", "grid y and z must be <= 65535");
  uint64_t threads = uint64_t(st.block[0]) * st.block[1] * st.block[2];
  if (threads > 1024)
    return r.error(ctx + ".block", "block has " + std::to_string(threads) +
                                       " threads, more than 1024");
  if (js.find("cluster")) {
    if ((s = r.getDim3(js, ctx, "cluster", st.cluster)).failed())
      return s;
    for (int d = 0; d < 3; ++d)
      if (st.grid[d] % st.cluster[d] != 0)
        return r.error(ctx + ".cluster",
                       "cluster dimension " + std::to_string(st.cluster[d]) +
                           " does not divide grid dimension " +
                           std::to_string(st.grid[d]));
    uint64_t blocks = uint64_t(st.cluster[0]) * st.cluster[1] * st.cluster[2];
    if (blocks > 16)
      return r.error(ctx + ".cluster", "cluster of " + std::to_string(blocks) +
                                           " blocks, more than 16");
  }
  if (const json::Value *p = js.find("persistent")) {
    if (!p->isBool())
      return r.error(ctx + ".persistent", std::string("expected bool, got ") +
                                              json::kindName(p->getKind()));
    st.persistent = p->getBool();
  }
  if (js.find("shared_bytes")) {
    int64_t shared;
    if ((s = r.getInt(js, ctx, "shared_bytes", shared, 0, 0x7fffffff)).failed())
      return s;
    st.sharedBytes = static_cast<unsigned>(shared);
  }
  const json::Value *args;
  if ((s = r.get(js, ctx, "args", args, json::Value::Kind::Array)).failed())
    return s;
  for (size_t i = 0; i < args->size(); ++i) {
    const json::Value &ja = args->at(i);
    std::string actx = ctx + ".args[" + std::to_string(i) + "]";
    if (!ja.isObject() || ja.size() != 1)
      return r.error(actx, "expected an object with exactly one of buffer, "
                           "i64, i32, f32");
    KernelArg a;
    const std::string &key = ja.memberKeys()[0];
    if (key == "buffer") {
      a.kind = KernelArg::Kind::Buffer;
      if ((s = r.getInt(ja, actx, "buffer", a.bufferId, 0)).failed() ||
          (s = checkBufferId(a.bufferId, actx + ".buffer")).failed())
        return s;
    } else if (key == "i64") {
      a.kind = KernelArg::Kind::I64;
      if ((s = r.getInt(ja, actx, "i64", a.intValue,
                        std::numeric_limits<int64_t>::min()))
              .failed())
        return s;
    } else if (key == "i32") {
      a.kind = KernelArg::Kind::I32;
      if ((s = r.getInt(ja, actx, "i32", a.intValue,
                        std::numeric_limits<int32_t>::min(),
                        std::numeric_limits<int32_t>::max()))
              .failed())
        return s;
    } else if (key == "f32") {
      a.kind = KernelArg::Kind::F32;
      const json::Value *v;
      if ((s = r.get(ja, actx, "f32", v, json::Value::Kind::Number)).failed())
        return s;
      a.floatValue = static_cast<float>(v->getNumber());
    } else {
      return r.error(actx + "." + key, "unknown argument kind (expected "
                                       "buffer, i64, i32 or f32)");
    }
    st.args.push_back(a);
  }
  if ((s = r.getInt(js, ctx, "bytes_read", st.bytesRead, 0)).failed() ||
      (s = r.getInt(js, ctx, "bytes_written", st.bytesWritten, 0)).failed())
    return s;
  return Status::ok();
}

/// Reads an entry_args list of `m`'s buffer ids into `out`.
static Status parseEntryArgs(const FieldReader &r, const json::Value &ea,
                             const std::string &key, const Manifest &m,
                             std::vector<int64_t> &out) {
  if (!ea.isArray())
    return r.error(key, std::string("expected array, got ") +
                            json::kindName(ea.getKind()));
  std::vector<bool> used(m.buffers.size(), false);
  for (size_t i = 0; i < ea.size(); ++i) {
    const json::Value &v = ea.at(i);
    std::string field = key + "[" + std::to_string(i) + "]";
    if (!v.isInt() || v.getInt() < 0 ||
        v.getInt() >= static_cast<int64_t>(m.buffers.size()))
      return r.error(field, "expected a buffer id in [0, " +
                                std::to_string(m.buffers.size()) + ")");
    const Buffer &b = m.buffers[static_cast<size_t>(v.getInt())];
    if (b.role != BufferRole::Input && b.role != BufferRole::Output)
      return r.error(field, "buffer " + std::to_string(b.id) + " is a " +
                                roleName(b.role) +
                                "; only inputs and outputs are passed");
    if (b.hostOnly)
      return r.error(field, "buffer " + std::to_string(b.id) +
                                " is host_only and is not passed");
    if (used[static_cast<size_t>(b.id)])
      return r.error(field, "buffer " + std::to_string(b.id) +
                                " listed twice");
    used[static_cast<size_t>(b.id)] = true;
    out.push_back(b.id);
  }
  for (const Buffer &b : m.buffers)
    if (b.role == BufferRole::Output && !b.hostOnly &&
        !used[static_cast<size_t>(b.id)])
      return r.error(key, "output buffer " + std::to_string(b.id) +
                              " is missing");
return Status::ok();
}

Expected<Manifest>
memopt::runtime::manifestFromJson(const json::Value &root,
                                  const std::string &path) {
  FieldReader r(path);
  Manifest m;
  m.path = path;
  m.directory = dirName(path);
  if (!root.isObject())
    return r.error("<top level>", "expected a JSON object");
  std::string format;
  Status s = r.getString(root, "", "format", format);
  if (s.failed())
    return s.error();
  if (format != "memopt-manifest")
    return r.error("format", "expected \"memopt-manifest\", got \"" + format +
                                 "\"");
  int64_t version;
  if ((s = r.getInt(root, "", "version", version, 0)).failed())
    return s.error();
  if (version != 1)
    return r.error("version", "unsupported version " +
                                  std::to_string(version) +
                                  " (this runtime reads version 1)");
  if ((s = r.getString(root, "", "function", m.function)).failed() ||
      (s = r.getString(root, "", "pipeline", m.pipeline)).failed())
    return s.error();
  // Host artifacts (reference, and kernels run as host loops for CPU
  // differential tests) carry a library instead of PTX.
  bool isHost = m.pipeline == "reference" || m.pipeline == "baseline-host" ||
                m.pipeline == "optimized-host";
  if (m.pipeline != "baseline" && m.pipeline != "optimized" && !isHost)
    return r.error("pipeline", "unknown pipeline '" + m.pipeline +
                                   "' (expected baseline, optimized, "
                                   "reference, baseline-host or "
                                   "optimized-host)");
  bool isReference = isHost;
  if (const json::Value *target = root.find("target")) {
    if (!target->isObject())
      return r.error("target", "expected object");
    if (target->find("chip") &&
        (s = r.getString(*target, "target", "chip", m.chip)).failed())
      return s.error();
    if (target->find("ptx_version") &&
        (s = r.getString(*target, "target", "ptx_version", m.ptxVersion))
            .failed())
      return s.error();
  }
  if (isReference) {
    std::string library;
    if ((s = r.getString(root, "", "library", library)).failed() ||
        (s = r.getString(root, "", "symbol", m.symbol)).failed())
      return s.error();
    m.libraryFile = joinPath(m.directory, library);
  } else {
    std::string ptx;
    if ((s = r.getString(root, "", "ptx", ptx)).failed())
      return s.error();
    m.ptxFile = joinPath(m.directory, ptx);
  }

  // Buffers: ids must be a permutation of 0..n-1.
  const json::Value *buffers;
  if ((s = r.get(root, "", "buffers", buffers, json::Value::Kind::Array))
          .failed())
    return s.error();
  m.buffers.resize(buffers->size());
  std::vector<bool> seen(buffers->size(), false);
  for (size_t i = 0; i < buffers->size(); ++i) {
    Buffer b;
    std::string ctx = "buffers[" + std::to_string(i) + "]";
    if ((s = parseBuffer(r, buffers->at(i), ctx, b)).failed())
      return s.error();
    if (b.id >= static_cast<int64_t>(buffers->size()))
      return r.error(ctx + ".id", "id " + std::to_string(b.id) +
                                      " is not dense (ids must be 0.." +
                                      std::to_string(buffers->size() - 1) +
                                      ")");
    if (seen[static_cast<size_t>(b.id)])
      return r.error(ctx + ".id", "duplicate id " + std::to_string(b.id));
    seen[static_cast<size_t>(b.id)] = true;
    m.buffers[static_cast<size_t>(b.id)] = std::move(b);
  }
  // Inputs first, then outputs, then derived inputs, temporaries and
  // aliases (in any order among themselves).
  int phase = 0;
  for (const Buffer &b : m.buffers) {
    std::string ctx = "buffers[id=" + std::to_string(b.id) + "]";
    int rank = b.isDerived()                    ? 2
               : b.role == BufferRole::Input  ? 0
               : b.role == BufferRole::Output ? 1
                                              : 2;
    if (rank < phase)
      return r.error(ctx + ".role",
                     std::string("'") + roleName(b.role) +
                         "' buffer after a later role: ids must list inputs, "
                         "then outputs, then derived inputs, temps and "
                         "aliases");
    phase = rank;
    if (b.isDerived()) {
      std::string dctx = ctx + ".derived";
      const DerivedInfo &d = b.derived;
      if (d.source >= static_cast<int64_t>(m.buffers.size()))
        return r.error(dctx + ".source", "buffer " +
                                             std::to_string(d.source) +
                                             " does not exist");
      const Buffer &src = m.buffers[static_cast<size_t>(d.source)];
      if (b.role == BufferRole::Input &&
          (src.role != BufferRole::Input || src.isDerived()))
        return r.error(dctx + ".source",
                       "buffer " + std::to_string(d.source) +
                           " is not a (non-derived) input");
      if (b.role == BufferRole::Output &&
          (src.role != BufferRole::Output || src.isDerived() ||
           !src.hostOnly))
        return r.error(dctx + ".source",
                       "buffer " + std::to_string(d.source) +
                           " is not a host-only (non-derived) output");
      if (src.dtype != b.dtype)
        return r.error(dctx + ".source",
                       std::string("source dtype ") + dtypeName(src.dtype) +
                           " differs from this buffer's " +
                           dtypeName(b.dtype));
      int64_t want;
      if (mulOverflows(b.numElements(), d.record, want) ||
          src.numElements() != want)
        return r.error(dctx + ".record",
                       "source buffer " + std::to_string(d.source) + " has " +
                           std::to_string(src.numElements()) +
                           " elements, expected numElements * record = " +
                           std::to_string(b.numElements()) + " * " +
                           std::to_string(d.record));
    }
    if (b.role == BufferRole::Output && b.hostOnly) {
      // Every field of the records comes from exactly one derived output or
      // pass-through entry.
      std::string hctx = ctx + ".host_only";
      int64_t record = 0;
      for (const Buffer &d : m.buffers)
        if (d.role == BufferRole::Output && d.isDerived() &&
            d.derived.source == b.id)
          record = d.derived.record;
      if (record == 0)
        return r.error(hctx, "no derived output is part of this output");
      std::vector<int> cover(static_cast<size_t>(record), 0);
      for (const Buffer &d : m.buffers)
        if (d.role == BufferRole::Output && d.isDerived() &&
            d.derived.source == b.id) {
          if (d.derived.record != record)
            return r.error(hctx, "derived outputs disagree on the record "
                                 "size");
          ++cover[static_cast<size_t>(d.derived.field)];
        }
      std::string pctx = ctx + ".pass_through";
      for (const PassThroughField &f : b.passThrough) {
        if (f.field >= record || f.sourceField >= record)
          return r.error(pctx, "field out of range for a record of " +
                                   std::to_string(record) + " elements");
        ++cover[static_cast<size_t>(f.field)];
        if (f.source >= static_cast<int64_t>(m.buffers.size()))
          return r.error(pctx, "buffer " + std::to_string(f.source) +
                                   " does not exist");
        const Buffer &src = m.buffers[static_cast<size_t>(f.source)];
        if (src.role != BufferRole::Input || src.isDerived() ||
            src.dtype != b.dtype || src.shape != b.shape)
          return r.error(pctx, "buffer " + std::to_string(f.source) +
                                   " is not a signature input of this "
                                   "output's dtype and shape");
      }
      for (int64_t f = 0; f < record; ++f)
        if (cover[static_cast<size_t>(f)] != 1)
          return r.error(hctx,
                         "field " + std::to_string(f) + " is given by " +
                             std::to_string(cover[static_cast<size_t>(f)]) +
                             " derived outputs and pass-through entries "
                             "(expected exactly one)");
    }
    if (isReference &&
        (b.role == BufferRole::Temp || b.role == BufferRole::Alias))
      return r.error(ctx + ".role", "a reference manifest lists only input "
                                    "and output buffers");
    if (b.role != BufferRole::Alias)
      continue;
    std::string actx = ctx + ".alias_of";
    if (b.aliasOf >= static_cast<int64_t>(m.buffers.size()))
      return r.error(actx, "buffer " + std::to_string(b.aliasOf) +
                               " does not exist");
    const Buffer &target = m.buffers[static_cast<size_t>(b.aliasOf)];
    if (target.hostOnly)
      return r.error(actx, "buffer " + std::to_string(b.aliasOf) +
                               " is host_only (it has no device allocation)");
    if (target.role == BufferRole::Alias)
      return r.error(actx, "alias of alias " + std::to_string(b.aliasOf) +
                               " (alias the allocated buffer directly)");
    if (b.offsetBytes + b.bytes > target.bytes)
      return r.error(ctx + ".offset_bytes",
                     "view [" + std::to_string(b.offsetBytes) + ", " +
                         std::to_string(b.offsetBytes + b.bytes) +
                         ") does not fit in buffer " +
                         std::to_string(target.id) + " of " +
                         std::to_string(target.bytes) + " bytes");
    if (b.offsetBytes % dtypeSize(b.dtype) != 0)
      return r.error(ctx + ".offset_bytes",
                     "offset " + std::to_string(b.offsetBytes) +
                         " is not a multiple of the element size");
  }
  if (m.numOutputs() == 0)
    return r.error("buffers", "no buffer with role 'output'");

  if (const json::Value *ea = root.find("entry_args")) {
    if (!isHost)
      return r.error("entry_args", "only host pipelines (reference, "
                                   "baseline-host, optimized-host) have an "
                                   "entry point; GPU pipelines bind buffers "
                                   "through kernel args");
    if (Status s = parseEntryArgs(r, *ea, "entry_args", m, m.entryArgs);
        s.failed())
      return s.error();
  }
  // The literal reference's f64, pairwise and perturbed evaluations.
  for (auto [key, variant] :
       {std::make_pair("f64_reference", &m.f64Reference),
        std::make_pair("pairwise_reference", &m.pairwiseReference),
        std::make_pair("perturbed_reference", &m.perturbedReference)}) {
    const json::Value *v = root.find(key);
    if (!v)
      continue;
    if (m.pipeline != "reference" || !v->isObject())
      return r.error(key, "expected an object, in a reference manifest");
    std::string library;
    if ((s = r.getString(*v, key, "library", library)).failed())
      return s.error();
    ReferenceVariant rv;
    rv.libraryFile = joinPath(m.directory, library);
    if (v->find("symbol") &&
        (s = r.getString(*v, key, "symbol", rv.symbol)).failed())
      return s.error();
    if (const json::Value *ea = v->find("entry_args"))
      if (Status es = parseEntryArgs(r, *ea, std::string(key) + ".entry_args",
                                     m, rv.entryArgs);
          es.failed())
        return es.error();
    *variant = std::move(rv);
  }

  const json::Value *schedule;
  if ((s = r.get(root, "", "schedule", schedule, json::Value::Kind::Array))
          .failed())
    return s.error();
  if (isReference && schedule->size() != 0)
    return r.error("schedule", "must be empty for the reference pipeline");
  if (!isReference && schedule->size() == 0)
    return r.error("schedule", "empty schedule for a GPU pipeline");
  for (size_t i = 0; i < schedule->size(); ++i) {
    Step st;
    if ((s = parseStep(r, schedule->at(i), "schedule[" + std::to_string(i) + "]",
                       m, st))
            .failed())
      return s.error();
    m.schedule.push_back(std::move(st));
  }

  if ((s = r.getInt(root, "", "min_bytes", m.minBytes, 0)).failed())
    return s.error();
  // min_bytes is not re-derived here: for layout-changing workloads (AoS
  // inputs of which only some fields are needed) the compiler reports the
  // SoA minimum, which is less than the input buffers' size.
  if (const json::Value *mb = root.find("model_bytes")) {
    if (!mb->isObject())
      return r.error("model_bytes", "expected object");
    if ((s = r.getInt(*mb, "model_bytes", "read", m.modelBytesRead, 0))
            .failed() ||
        (s = r.getInt(*mb, "model_bytes", "written", m.modelBytesWritten, 0))
            .failed())
      return s.error();
  } else if (!isReference) {
    return r.error("model_bytes", "missing required field");
  }
  return m;
}

Expected<Manifest> memopt::runtime::loadManifest(const std::string &path) {
  std::string text;
  Status s = readFile(path, text);
  if (s.failed())
    return s.error();
  Expected<json::Value> root = json::parse(text, path);
  if (root.failed())
    return root.error();
  return manifestFromJson(*root, path);
}

Status memopt::runtime::checkCompatible(const Manifest &base,
                                        const Manifest &other) {
  auto mismatch = [&](const std::string &what) {
    return makeError(ErrorKind::Manifest, other.path + ": " + what +
                                              " (does not match " + base.path +
                                              ")");
  };
  if (base.numInputs() != other.numInputs())
    return mismatch("buffers: " + std::to_string(other.numInputs()) +
                    " inputs vs " + std::to_string(base.numInputs()));
  if (base.numOutputs() != other.numOutputs())
    return mismatch("buffers: " + std::to_string(other.numOutputs()) +
                    " outputs vs " + std::to_string(base.numOutputs()));
  // Validation puts signature buffers first (ids 0 .. n-1), in both.
  unsigned n = base.numInputs() + base.numOutputs();
  for (unsigned i = 0; i < n; ++i) {
    const Buffer &a = base.buffers[i];
    const Buffer &b = other.buffers[i];
    if (!a.isSignature() || !b.isSignature())
      return mismatch("buffers[id=" + std::to_string(i) +
                      "]: not a signature buffer (inputs, then outputs, "
                      "must come first)");
    std::string ctx = "buffers[id=" + std::to_string(i) + "]";
    if (a.role != b.role)
      return mismatch(ctx + ".role: " + roleName(b.role) + " vs " +
                      roleName(a.role));
    if (a.dtype != b.dtype)
      return mismatch(ctx + ".dtype: " + dtypeName(b.dtype) + " vs " +
                      dtypeName(a.dtype));
    if (a.shape != b.shape) {
      auto str = [](const std::vector<int64_t> &v) {
        std::string s = "[";
        for (size_t k = 0; k < v.size(); ++k)
          s += (k ? "," : "") + std::to_string(v[k]);
        return s + "]";
      };
      return mismatch(ctx + ".shape: " + str(b.shape) + " vs " + str(a.shape));
    }
  }
  return Status::ok();
}
