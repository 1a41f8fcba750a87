//===- Artifacts.cpp - PTX, manifest and CPU reference output -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements compileArtifact and writeArtifact: it runs a pipeline
// of lib/Pipeline on a copy of the module and turns the result into the
// launch manifest of docs/manifest.md plus PTX or a host shared object.
//
//===----------------------------------------------------------------------===//

#include "memopt/Target/Artifacts.h"
#include "memopt/Analysis/KernelReport.h"
#include "memopt/Analysis/Traffic.h"
#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <set>

using namespace mlir;
using namespace mlir::memopt;

static std::string dtypeName(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isF64())
    return "f64";
  if (auto i = dyn_cast<IntegerType>(t))
    return "i" + std::to_string(i.getWidth());
  return "";
}

static int64_t elementBytes(Type t) {
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits < 8 ? 1 : bits / 8;
}

/// The bytes that hold `type`: i2/i4 tensors are stored packed (see
/// memopt-pack-sub-byte-integers), i1 a byte per element.
static int64_t storageBytes(ShapedType type) {
  if (auto t = dyn_cast<RankedTensorType>(type))
    if (RankedTensorType packed = getPackedStorageType(t))
      return packed.getNumElements();
  return type.getNumElements() * elementBytes(type.getElementType());
}

namespace {
/// The buffers of one program, in manifest id order.
class BufferTable {
public:
  unsigned add(StringRef name, StringRef role, ShapedType type,
               int aliasOf = -1) {
    llvm::json::Object o;
    unsigned id = entries.size();
    o["id"] = id;
    o["name"] = name.str();
    o["role"] = role.str();
    auto shapeOf = [](ShapedType t) {
      llvm::json::Array shape;
      for (int64_t d : t.getShape())
        shape.push_back(d);
      return shape;
    };
    // A packed sub-byte tensor is its i8 storage to the runtime; "packed"
    // records the logical tensor it holds (low bits first).
    RankedTensorType packed;
    if (auto t = dyn_cast<RankedTensorType>(type))
      packed = getPackedStorageType(t);
    ShapedType storage = packed ? ShapedType(packed) : type;
    o["dtype"] = dtypeName(storage.getElementType());
    o["shape"] = shapeOf(storage);
    o["bytes"] = storageBytes(type);
    if (packed)
      o["packed"] = llvm::json::Object{
          {"dtype", dtypeName(type.getElementType())},
          {"shape", shapeOf(type)}};
    if (aliasOf >= 0) {
      o["alias_of"] = aliasOf;
      o["offset_bytes"] = 0;
    }
    entries.push_back(std::move(o));
    return id;
  }
  llvm::json::Array take() { return std::move(entries); }
  llvm::json::Array entries;
};

/// The function's signature, captured before any pass changes it.
struct Signature {
  std::string name;
  SmallVector<ShapedType> inputs, results;
  int64_t minBytes = 0;
};
} // namespace

static FailureOr<func::FuncOp> findFunction(ModuleOp module, StringRef name) {
  func::FuncOp found;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (f.isExternal() || (!name.empty() && f.getSymName() != name))
      continue;
    if (name.empty() && f.isPrivate())
      continue;
    if (found) {
      return module.emitError("more than one public function with a body; "
                              "name the one to compile"),
             failure();
    }
    found = f;
  }
  if (!found)
    return module.emitError("no function to compile") << (name.empty() ? "" : ": ") << name,
           failure();
  return found;
}

static FailureOr<Signature> captureSignature(func::FuncOp f) {
  Signature sig;
  sig.name = f.getSymName().str();
  auto check = [&](Type t, SmallVector<ShapedType> &into) -> LogicalResult {
    auto st = dyn_cast<RankedTensorType>(t);
    if (!st || !st.hasStaticShape() || dtypeName(st.getElementType()).empty())
      return f.emitOpError("signature type ")
             << t << " is not a static tensor of a supported element type";
    into.push_back(st);
    sig.minBytes += storageBytes(st);
    return success();
  };
  for (Type t : f.getFunctionType().getInputs())
    if (failed(check(t, sig.inputs)))
      return failure();
  for (Type t : f.getFunctionType().getResults())
    if (failed(check(t, sig.results)))
      return failure();
  return sig;
}

static void addSignatureBuffers(BufferTable &table, const Signature &sig) {
  for (auto [i, t] : llvm::enumerate(sig.inputs))
    table.add("arg" + std::to_string(i), "input", t);
  for (auto [i, t] : llvm::enumerate(sig.results))
    table.add("res" + std::to_string(i), "output", t);
}

static llvm::json::Object manifestHeader(const Signature &sig, StringRef kind,
                                         const MemoptPipelineConfig &cfg,
                                         TargetAttr target) {
  llvm::json::Object m;
  m["format"] = "memopt-manifest";
  m["version"] = 1;
  m["function"] = sig.name;
  m["pipeline"] = kind.str();
  m["target"] = llvm::json::Object{
      {"chip", cfg.chip},
      {"ptx_version", StringRef(cfg.features).contains("ptx80") ? "8.0" : ""},
      {"l2_bytes", target.getL2Bytes()}};
  m["min_bytes"] = sig.minBytes;
  return m;
}

/// What memopt-aos-to-soa did to the function's results, read before
/// bufferization turns them into out-parameters: per result of the
/// transformed function its `memopt.aos_field` attribute (or null), and the
/// `memopt.aos_pass_through` list.
struct ResultLayout {
  SmallVector<DictionaryAttr> fields;
  ArrayAttr passThrough;
};

static ResultLayout captureResultLayout(func::FuncOp f) {
  ResultLayout layout;
  for (unsigned r = 0; r < f.getNumResults(); ++r)
    layout.fields.push_back(
        f.getResultAttrOfType<DictionaryAttr>(r, "memopt.aos_field"));
  layout.passThrough = f->getAttrOfType<ArrayAttr>("memopt.aos_pass_through");
  return layout;
}

/// Assigns manifest buffer ids to the arguments of the bufferized host
/// function: its inputs, then one out-parameter per result of `layout`.
/// Arguments carrying `memopt.aos_field` (memopt-aos-to-soa) become derived
/// input buffers and results carrying it derived output buffers; the record
/// arrays they replace stay in the table, marked host-only (an output lists
/// the fields the host copies from an input record as `pass_through`).
/// Returns the ids in argument order.
static FailureOr<SmallVector<unsigned>>
bindArguments(func::FuncOp host, const Signature &sig,
              const ResultLayout &layout, BufferTable &table) {
  unsigned nIn = sig.inputs.size(), nOut = sig.results.size();
  unsigned nRes = layout.fields.size();
  if (host.getNumArguments() < nRes)
    return host.emitOpError("has fewer buffer arguments than results"),
           failure();
  unsigned nArgs = host.getNumArguments() - nRes;
  // Input IR may carry the attribute too: check its fields before use.
  auto checkField = [&](DictionaryAttr d) -> LogicalResult {
    auto source = d.getAs<IntegerAttr>("source");
    auto record = d.getAs<IntegerAttr>("record");
    auto field = d.getAs<IntegerAttr>("field");
    if (!source || !record || !field || record.getInt() < 1 ||
        field.getInt() < 0 || field.getInt() >= record.getInt())
      return host.emitOpError("has a malformed memopt.aos_field ")
             << d << " (expected integer source, record >= 1 and field in "
                     "[0, record))";
    return success();
  };
  for (unsigned a = 0; a < nArgs; ++a)
    if (auto d = host.getArgAttrOfType<DictionaryAttr>(a, "memopt.aos_field"))
      if (failed(checkField(d)))
        return failure();
  for (DictionaryAttr d : layout.fields)
    if (d && failed(checkField(d)))
      return failure();
  std::set<int64_t> replaced, replacedOut;
  for (unsigned a = 0; a < nArgs; ++a)
    if (auto d = host.getArgAttrOfType<DictionaryAttr>(a, "memopt.aos_field"))
      replaced.insert(cast<IntegerAttr>(d.get("source")).getInt());
  for (DictionaryAttr d : layout.fields)
    if (d)
      replacedOut.insert(cast<IntegerAttr>(d.get("source")).getInt());
  // One derived buffer per field; `source` is the id of the record buffer.
  auto addDerived = [&](StringRef prefix, StringRef role, DictionaryAttr d,
                        int64_t src, int64_t srcId,
                        ShapedType type) -> unsigned {
    int64_t record = cast<IntegerAttr>(d.get("record")).getInt();
    int64_t field = cast<IntegerAttr>(d.get("field")).getInt();
    unsigned id = table.add(
        (prefix + std::to_string(src) + ".f" + std::to_string(field)).str(),
        role, type);
    auto &entry = *table.entries[id].getAsObject();
    entry["derived"] = llvm::json::Object{{"kind", "aos-field"},
                                          {"source", srcId},
                                          {"record", record},
                                          {"field", field}};
    return id;
  };
  SmallVector<unsigned> ids;
  unsigned next = 0;
  for (unsigned a = 0; a < nArgs; ++a) {
    auto type = cast<ShapedType>(host.getArgument(a).getType());
    if (auto d = host.getArgAttrOfType<DictionaryAttr>(a, "memopt.aos_field")) {
      int64_t src = cast<IntegerAttr>(d.get("source")).getInt();
      if (src < 0 || src >= nIn)
        return host.emitOpError("memopt.aos_field names argument ")
               << src << " which is not an input", failure();
      ids.push_back(addDerived("arg", "input", d, src, src, type));
      continue;
    }
    while (next < nIn && replaced.count(next))
      ++next;
    if (next >= nIn)
      return host.emitOpError("has more input arguments than the function "
                              "has inputs"), failure();
    ids.push_back(next++);
  }
  while (next < nIn && replaced.count(next))
    ++next;
  if (next != nIn)
    return host.emitOpError("has ")
           << nArgs << " input arguments after bufferization, which do not "
           << "cover the function's " << nIn << " inputs", failure();
  unsigned nextOut = 0;
  for (unsigned r = 0; r < nRes; ++r) {
    auto type = cast<ShapedType>(host.getArgument(nArgs + r).getType());
    if (DictionaryAttr d = layout.fields[r]) {
      int64_t src = cast<IntegerAttr>(d.get("source")).getInt();
      if (src < 0 || src >= nOut)
        return host.emitOpError("memopt.aos_field names result ")
               << src << " which the function does not have", failure();
      ids.push_back(addDerived("res", "output", d, src, nIn + src, type));
      continue;
    }
    while (nextOut < nOut && replacedOut.count(nextOut))
      ++nextOut;
    if (nextOut >= nOut)
      return host.emitOpError("has more results than the function had"),
             failure();
    ids.push_back(nIn + nextOut++);
  }
  while (nextOut < nOut && replacedOut.count(nextOut))
    ++nextOut;
  if (nextOut != nOut)
    return host.emitOpError("has ")
           << nRes << " results before bufferization, which do not cover "
           << "the function's " << nOut << " results", failure();
  for (int64_t src : replaced)
    (*table.entries[src].getAsObject())["host_only"] = true;
  for (int64_t src : replacedOut)
    (*table.entries[nIn + src].getAsObject())["host_only"] = true;
  if (layout.passThrough) {
    std::map<int64_t, llvm::json::Array> copies;
    for (Attribute a : layout.passThrough) {
      auto d = dyn_cast<DictionaryAttr>(a);
      auto get = [&](StringRef key) -> int64_t {
        auto i = d ? d.getAs<IntegerAttr>(key) : IntegerAttr();
        return i ? i.getInt() : -1;
      };
      int64_t res = get("result"), src = get("source");
      if (!replacedOut.count(res) || src < 0 || src >= nIn ||
          get("field") < 0 || get("source_field") < 0)
        return host.emitOpError("has a malformed memopt.aos_pass_through "
                                "entry: ")
               << a, failure();
      copies[res].push_back(llvm::json::Object{
          {"field", get("field")},
          {"source", src},
          {"source_field", get("source_field")}});
    }
    for (auto &[res, list] : copies)
      (*table.entries[nIn + res].getAsObject())["pass_through"] =
          std::move(list);
  }
  return ids;
}

/// Minimum bytes of the program as it consumes its data: every buffer the
/// device reads once (derived fields instead of host-only record arrays),
/// every output written once.
static int64_t consumedMinBytes(BufferTable &table) {
  int64_t total = 0;
  for (llvm::json::Value &v : table.entries) {
    llvm::json::Object &o = *v.getAsObject();
    std::optional<llvm::StringRef> role = o.getString("role");
    if (!role || (*role != "input" && *role != "output"))
      continue;
    if (o.getBoolean("host_only").value_or(false))
      continue;
    total += o.getInteger("bytes").value_or(0);
  }
  return total;
}

/// Builds the host schedule of a lowered GPU program.
static LogicalResult buildSchedule(func::FuncOp host, const Signature &sig,
                                   ArrayRef<unsigned> argIds,
                                   ArrayRef<KernelReport> traffic,
                                   ArrayRef<bool> persistent,
                                   BufferTable &table,
                                   llvm::json::Array &schedule,
                                   int64_t &modelRead, int64_t &modelWritten,
                                   int64_t l2Bytes) {
  DenseMap<Value, unsigned> ids;
  for (BlockArgument arg : host.getArguments())
    ids[arg] = argIds[arg.getArgNumber()];
  unsigned temps = 0, views = 0, launchIndex = 0;
  for (Operation &op : host.getBody().front()) {
    if (isa<arith::ConstantOp, func::ReturnOp, memref::DeallocOp>(op))
      continue;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (!alloc.getType().hasStaticShape())
        return alloc.emitOpError("dynamic allocation cannot be described by "
                                 "the manifest");
      ids[alloc] = table.add("tmp" + std::to_string(temps++), "temp",
                             alloc.getType());
      continue;
    }
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp, memref::CastOp>(
            op)) {
      Value src = op.getOperand(0);
      auto it = ids.find(src);
      if (it == ids.end())
        return op.emitOpError("views a buffer the manifest does not know");
      // Aliases always point at the root allocation.
      int root = it->second;
      auto &rootEntry = *table.entries[root].getAsObject();
      if (auto a = rootEntry.getInteger("alias_of"))
        root = *a;
      ids[op.getResult(0)] =
          table.add("view" + std::to_string(views++), "alias",
                    cast<ShapedType>(op.getResult(0).getType()), root);
      continue;
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      auto src = ids.find(copy.getSource()), dst = ids.find(copy.getTarget());
      if (src == ids.end() || dst == ids.end())
        return copy.emitOpError("copies a buffer the manifest does not know");
      int64_t bytes = getStaticBytes(cast<MemRefType>(copy.getSource().getType()));
      schedule.push_back(llvm::json::Object{{"kind", "copy"},
                                            {"src", src->second},
                                            {"dst", dst->second},
                                            {"bytes", bytes}});
      modelRead += bytes;
      modelWritten += bytes;
      continue;
    }
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      if (launchIndex >= traffic.size())
        return launch.emitOpError("has no traffic record");
      bool isPersistent = persistent[launchIndex];
      const KernelReport &t = traffic[launchIndex++];
      auto dims = [&](gpu::KernelDim3 d) -> FailureOr<llvm::json::Array> {
        llvm::json::Array a;
        for (Value v : {d.x, d.y, d.z}) {
          std::optional<int64_t> c = getConstantIntValue(v);
          if (!c)
            return failure();
          a.push_back(*c);
        }
        return a;
      };
      FailureOr<llvm::json::Array> grid = dims(launch.getGridSizeOperandValues());
      FailureOr<llvm::json::Array> block = dims(launch.getBlockSizeOperandValues());
      if (failed(grid) || failed(block))
        return launch.emitOpError("grid and block sizes must be constants");
      FailureOr<llvm::json::Array> cluster = llvm::json::Array{1, 1, 1};
      if (launch.hasClusterSize())
        cluster = dims(launch.getClusterSizeOperandValues());
      if (failed(cluster))
        return launch.emitOpError("cluster sizes must be constants");
      int64_t dynShared = 0;
      if (Value s = launch.getDynamicSharedMemorySize()) {
        std::optional<int64_t> c = getConstantIntValue(s);
        if (!c)
          return launch.emitOpError("dynamic shared memory must be constant");
        dynShared = *c;
      }
      llvm::json::Array args;
      for (Value a : launch.getKernelOperands()) {
        if (isa<MemRefType>(a.getType())) {
          auto it = ids.find(a);
          if (it == ids.end())
            return launch.emitOpError("passes a buffer the manifest does not "
                                      "know");
          args.push_back(llvm::json::Object{{"buffer", it->second}});
          continue;
        }
        std::optional<int64_t> ci = getConstantIntValue(a);
        if (ci && (a.getType().isIndex() || a.getType().isInteger(64))) {
          args.push_back(llvm::json::Object{{"i64", *ci}});
          continue;
        }
        if (ci && a.getType().isInteger(32)) {
          args.push_back(llvm::json::Object{{"i32", *ci}});
          continue;
        }
        FloatAttr f;
        if (a.getType().isF32() && matchPattern(a, m_Constant(&f))) {
          args.push_back(
              llvm::json::Object{{"f32", f.getValueAsDouble()}});
          continue;
        }
        return launch.emitOpError("kernel argument of type ")
               << a.getType() << " is not a buffer or a constant scalar";
      }
      llvm::json::Object step{
          {"kind", "launch"},
          {"kernel", launch.getKernelName().getValue().str()},
          {"grid", std::move(*grid)},
          {"block", std::move(*block)},
          {"shared_bytes", dynShared},
          {"args", std::move(args)},
          {"bytes_read", t.bytesRead},
          {"bytes_written", t.bytesWritten},
          {"dram_bytes_in_kernel", getDramBytesDuringKernel(t.bytesRead, t.bytesWritten, l2Bytes)},
          {"bank_conflicts_ld", t.bankConflictsLoad},
          {"bank_conflicts_st", t.bankConflictsStore}};
      // Thread-block clusters only where the kernel needs them (older
      // manifests and runtimes know no "cluster" key).
      if (launch.hasClusterSize())
        step["cluster"] = std::move(*cluster);
      if (isPersistent)
        step["persistent"] = true;
      schedule.push_back(std::move(step));
      modelRead += t.bytesRead;
      modelWritten += t.bytesWritten;
      continue;
    }
    if (isa<memref::GetGlobalOp>(op))
      return op.emitOpError("constant tensors are not supported by the launch "
                            "manifest; materialize them with linalg.fill or "
                            "pass them as arguments");
    return op.emitOpError("remains in host code after lowering; the launch "
                          "manifest cannot describe it");
  }
  return success();
}

static FailureOr<std::string> emitHostObject(ModuleOp module) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return module.emitError("translation to LLVM IR failed"), failure();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string err;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target)
    return module.emitError("no host target: ") << err, failure();
  llvm::TargetOptions opts;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, "generic", "", opts, llvm::Reloc::PIC_));
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->setTargetTriple(triple);
  auto optimize = makeOptimizingTransformer(2, 0, tm.get());
  if (llvm::Error e = optimize(llvmModule.get())) {
    llvm::consumeError(std::move(e));
    return module.emitError("LLVM optimization of the host code failed"),
           failure();
  }
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              llvm::CodeGenFileType::ObjectFile))
    return module.emitError("host target cannot emit objects"), failure();
  pm.run(*llvmModule);
  return std::string(buffer.str());
}


FailureOr<Artifact> mlir::memopt::compileArtifact(
    ModuleOp original, ArtifactKind kind, const MemoptPipelineConfig &config,
    StringRef stem, StringRef functionName) {
  OwningOpRef<ModuleOp> module(cast<ModuleOp>(original->clone()));
  FailureOr<func::FuncOp> func = findFunction(*module, functionName);
  if (failed(func))
    return failure();
  FailureOr<Signature> sig = captureSignature(*func);
  if (failed(sig))
    return failure();
  // Keep only the function being compiled (and declarations).
  for (auto f : llvm::make_early_inc_range(module->getOps<func::FuncOp>()))
    if (f != *func && !f.isExternal())
      f.erase();

  MLIRContext *ctx = module->getContext();
  Artifact artifact;
  BufferTable table;
  addSignatureBuffers(table, *sig);
  StringRef kindName;
  switch (kind) {
  case ArtifactKind::Baseline:
    kindName = "baseline";
    break;
  case ArtifactKind::Optimized:
    kindName = "optimized";
    break;
  case ArtifactKind::Reference:
  case ArtifactKind::ReferenceF64:
  case ArtifactKind::ReferencePairwise:
  case ArtifactKind::ReferencePerturbed:
    kindName = "reference";
    break;
  case ArtifactKind::BaselineOnHost:
    kindName = "baseline-host";
    break;
  case ArtifactKind::OptimizedOnHost:
    kindName = "optimized-host";
    break;
  }
  // The chip facts: the module's pinned #memopt.target, else the chip's
  // (memopt-set-target attaches the same description).
  TargetAttr target = (*module)->getAttrOfType<TargetAttr>(kTargetAttrName);
  if (!target)
    target = getKnownTarget(ctx, config.chip);
  if (!target)
    return module->emitError("unknown chip '") << config.chip << "'",
           failure();
  llvm::json::Object manifest = manifestHeader(*sig, kindName, config, target);

  // Everything but the optimized kinds is naive (which also skips the
  // layout stage). The front stages run first in every kind, to learn which
  // buffer each argument of the bufferized function is.
  MemoptPipelineConfig cfg = config;
  if (kind != ArtifactKind::Optimized && kind != ArtifactKind::OptimizedOnHost)
    cfg.formKernels.strategy = KernelStrategy::Naive;
  // The CPU references keep slices and concatenations (bufferized
  // upstream): an independent check of memopt-fold-slices.
  bool reference = kind == ArtifactKind::Reference ||
                   kind == ArtifactKind::ReferenceF64 ||
                   kind == ArtifactKind::ReferencePairwise ||
                   kind == ArtifactKind::ReferencePerturbed;
  if (reference)
    cfg.foldSlices = false;
  cfg.widenFloats = kind == ArtifactKind::ReferenceF64;
  // The perturbed reference perturbs the pairwise order's roundings: the
  // literal order of a 16-bit program (f16 sums of 4096 squares) is itself
  // far off, and its spread would cover real errors.
  cfg.pairwiseReductions = kind == ArtifactKind::ReferencePairwise ||
                           kind == ArtifactKind::ReferencePerturbed;
  if (cfg.widenFloats)
    manifest["reference_precision"] = "f64";
  if (cfg.pairwiseReductions)
    manifest["reference_order"] = "pairwise";
  cfg.perturbRounding = kind == ArtifactKind::ReferencePerturbed;
  if (cfg.perturbRounding)
    manifest["reference_rounding"] = "perturbed";
  // buildFrontStages in two steps, to read what the layout stage did to the
  // results before bufferization (out-parameters lose result attributes).
  PassManager layoutPm(ctx), bufferPm(ctx);
  if (failed(buildPreBufferizationStages(layoutPm, cfg)) ||
      failed(layoutPm.run(*module)))
    return failure();
  ResultLayout resultLayout =
      captureResultLayout(*findFunction(*module, sig->name));
  if (failed(buildBufferizationStage(bufferPm, cfg)) ||
      failed(bufferPm.run(*module)))
    return failure();
  FailureOr<SmallVector<unsigned>> argIds = bindArguments(
      *findFunction(*module, sig->name), *sig, resultLayout, table);
  if (failed(argIds))
    return failure();

  if (kind == ArtifactKind::Baseline || kind == ArtifactKind::Optimized) {
    PassManager kernels(ctx);
    if (failed(buildKernelStage(kernels, cfg)) || failed(kernels.run(*module)))
      return failure();
    // The traffic model runs on the formed kernels, before outlining, in
    // launch order; outlining keeps that order.
    SmallVector<KernelReport> traffic;
    SmallVector<bool> persistent;
    module->walk([&](gpu::LaunchOp l) {
      traffic.push_back(analyzeKernel(l));
      persistent.push_back(l->hasAttr(kPersistentAttrName));
    });
    PassManager back(ctx);
    if (failed(buildLoweringStage(back, cfg)) || failed(back.run(*module)))
      return failure();
    std::string ptx;
    unsigned binaries = 0;
    for (auto bin : module->getOps<gpu::BinaryOp>()) {
      ++binaries;
      auto obj = cast<gpu::ObjectAttr>(bin.getObjects()[0]);
      ptx = obj.getObject().getValue().str();
    }
    // A PTX module that calls undefined functions (libdevice) fails to load
    // on the GPU; say so here instead.
    for (StringRef line : llvm::split(ptx, '\n'))
      if (line.contains(".extern .func"))
        return module->emitError("kernel needs an external function that "
                                 "memopt does not link (libdevice): ")
               << line.trim(), failure();
    if (binaries > 1)
      return module->emitError("the program lowered to ")
             << binaries << " kernel modules; expected one", failure();
    func::FuncOp host = *findFunction(*module, sig->name);
    llvm::json::Array schedule;
    int64_t read = 0, written = 0;
    if (failed(buildSchedule(host, *sig, *argIds, traffic, persistent, table, schedule,
                             read, written, target.getL2Bytes())))
      return failure();
    manifest["ptx"] = (stem + ".ptx").str();
    manifest["min_bytes"] = consumedMinBytes(table);
    manifest["buffers"] = table.take();
    manifest["schedule"] = std::move(schedule);
    manifest["model_bytes"] =
        llvm::json::Object{{"read", read}, {"written", written}};
    artifact.ptx = std::move(ptx);
  } else {
    // The reference lowers the bufferized original function directly.
    PassManager back(ctx);
    LogicalResult built = reference ? buildHostLoweringStage(back)
                                    : buildHostEmulationBackend(back, cfg);
    if (failed(built) || failed(back.run(*module)))
      return failure();
    llvm::json::Array entryArgs;
    for (unsigned id : *argIds)
      entryArgs.push_back(id);
    manifest["entry_args"] = std::move(entryArgs);
    FailureOr<std::string> obj = emitHostObject(*module);
    if (failed(obj))
      return failure();
    artifact.hostObject = std::move(*obj);
    manifest["library"] = (stem + ".so").str();
    manifest["min_bytes"] = consumedMinBytes(table);
    manifest["symbol"] = sig->name;
    manifest["buffers"] = table.take();
    manifest["schedule"] = llvm::json::Array();
    // The literal reference ships the f64, the pairwise and the perturbed
    // evaluations of the same function, which the verdicts judge against.
    if (kind == ArtifactKind::Reference)
      for (auto [variant, suffix, key] :
           {std::make_tuple(ArtifactKind::ReferenceF64, ".f64",
                            "f64_reference"),
            std::make_tuple(ArtifactKind::ReferencePairwise, ".pairwise",
                            "pairwise_reference"),
            std::make_tuple(ArtifactKind::ReferencePerturbed, ".perturbed",
                            "perturbed_reference")}) {
        std::string variantStem = (stem + suffix).str();
        FailureOr<Artifact> v =
            compileArtifact(original, variant, config, variantStem,
                            functionName);
        if (failed(v))
          return failure();
        llvm::Expected<llvm::json::Value> parsed =
            llvm::json::parse(v->manifest);
        if (!parsed) {
          llvm::consumeError(parsed.takeError());
          return original.emitError("internal: unreadable ")
                 << key << " manifest", failure();
        }
        llvm::json::Object entry{{"library", variantStem + ".so"}};
        if (const llvm::json::Array *a =
                parsed->getAsObject()->getArray("entry_args"))
          entry["entry_args"] = llvm::json::Array(*a);
        manifest[key] = std::move(entry);
        artifact.variantHostObjects.emplace_back(suffix,
                                                 std::move(v->hostObject));
      }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)));
  artifact.manifest = std::move(text);
  return artifact;
}

static LogicalResult writeFile(StringRef path, StringRef data, Location loc) {
  std::string err;
  auto out = openOutputFile(path, &err);
  if (!out)
    return emitError(loc) << "cannot write " << path << ": " << err;
  out->os() << data;
  out->keep();
  return success();
}

/// Links `object` into `<stemPath>.so` with the system C compiler.
static LogicalResult linkHostLibrary(StringRef object, StringRef stemPath,
                                     Location loc) {
  std::string objPath = (stemPath + ".o").str();
  if (failed(writeFile(objPath, object, loc)))
    return failure();
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return emitError(loc) << "no C compiler ('cc') to link the host object";
  // x86 keeps bf16 values in f32 registers and narrows them with
  // __truncsfbf2, which older libgcc (Debian 12's) lacks: link our own
  // round-to-nearest-even version (bf16 and _Float16 both return in xmm0).
  std::string rtPath = (stemPath + ".rt.c").str();
  if (failed(writeFile(rtPath, R"c(
#include <stdint.h>
#include <string.h>
__attribute__((weak)) _Float16 __truncsfbf2(float f) {
  uint32_t u;
  uint16_t h;
  _Float16 r;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    h = (uint16_t)((u >> 16) | 0x40u);
  else
    h = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  memcpy(&r, &h, 2);
  return r;
}
)c", loc)))
    return failure();
  std::string soPath = (stemPath + ".so").str();
  SmallVector<StringRef> args = {*cc,    "-shared", "-O2",  "-fPIC", "-o",
                                 soPath, objPath,   rtPath, "-lm"};
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0,
                                     &errMsg);
  llvm::sys::fs::remove(objPath);
  llvm::sys::fs::remove(rtPath);
  if (rc != 0)
    return emitError(loc) << "linking " << soPath << " failed: " << errMsg;
  return success();
}

LogicalResult mlir::memopt::writeArtifact(const Artifact &artifact,
                                          StringRef stemPath, Location loc) {
  if (failed(writeFile((stemPath + ".json").str(), artifact.manifest, loc)))
    return failure();
  if (!artifact.ptx.empty())
    return writeFile((stemPath + ".ptx").str(), artifact.ptx, loc);
  if (artifact.hostObject.empty())
    return success();
  if (failed(linkHostLibrary(artifact.hostObject, stemPath, loc)))
    return failure();
  for (const auto &[suffix, object] : artifact.variantHostObjects)
    if (failed(linkHostLibrary(object, (stemPath + suffix).str(), loc)))
      return failure();
  return success();
}
