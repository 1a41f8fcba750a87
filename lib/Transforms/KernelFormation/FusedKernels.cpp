//===- FusedKernels.cpp - fused kernel groups ---------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements formFusedKernels: consecutive linalg.generic ops on
// memrefs that share a row space are grouped, and each group becomes one
// kernel:
//
//  * row kernels (a group with a reduction over the innermost loop): one CTA
//    per row; each thread holds its chunks of the row in registers, thread
//    partials combine through warp shuffles and a shared-memory exchange, and
//    every op of the group (prologue, reductions, epilogue) runs on the
//    register copy, so the row is read from DRAM once;
//  * elementwise kernels (a group without reductions): each thread handles
//    one chunk of `v` contiguous elements with vector loads and stores;
//  * tiled transposes (one all-parallel op whose input is contiguous along a
//    different loop than its output): a padded 32x33 shared tile so that both
//    the read and the write are coalesced and the tile is conflict-free;
//  * column reductions (reduction over an outer loop): threads own columns,
//    blocks own row slices, partials are combined with atomics.
//
// Buffers produced and consumed only inside one group stay in registers.
// Ops that fit no strategy become naive kernels, with a remark saying why.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "memopt/Analysis/AccessPattern.h"
#include "memopt/Dialect/MemoptDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Debug.h"

#include <limits>
#include <variant>

#define DEBUG_TYPE "memopt-form-kernels"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

//===----------------------------------------------------------------------===//
// Op classification
//===----------------------------------------------------------------------===//

namespace {
/// How one linalg.generic relates to a row space (outer dims x inner dim).
enum class RowRole {
  /// All loops parallel, loop space = outer dims (computed once per row).
  Scalar,
  /// All loops parallel, loop space = outer dims x inner dim.
  Vector,
  /// Outer loops parallel, innermost loop a reduction.
  Reduce,
};

/// A generic op placed in a group.
struct GroupOp {
  /// Mutable so that const references can query the op.
  mutable linalg::GenericOp op;
  RowRole role;
  /// Reduce ops: the combiner kind.
  arith::AtomicRMWKind kind = arith::AtomicRMWKind::addf;
};

/// A kernel group under construction.
struct Group {
  SmallVector<int64_t> outer;
  int64_t inner = -1;
  SmallVector<GroupOp> ops;
  /// Root buffers written in the group -> the memref value written.
  llvm::MapVector<Value, Value> written;
  /// Whether a written buffer is a row-vector (true) or a row-scalar.
  DenseMap<Value, bool> writtenIsVector;
  /// Root buffers read from memory by the group.
  DenseSet<Value> readExternal;
  bool hasReduce() const {
    return llvm::any_of(ops, [](const GroupOp &g) {
      return g.role == RowRole::Reduce;
    });
  }
};
} // namespace

static std::optional<arith::AtomicRMWKind> getCombinerKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<arith::AtomicRMWKind>>(op)
      .Case([](arith::AddFOp) { return arith::AtomicRMWKind::addf; })
      .Case([](arith::MulFOp) { return arith::AtomicRMWKind::mulf; })
      .Case([](arith::MaximumFOp) { return arith::AtomicRMWKind::maximumf; })
      .Case([](arith::MinimumFOp) { return arith::AtomicRMWKind::minimumf; })
      .Case([](arith::MaxNumFOp) { return arith::AtomicRMWKind::maxnumf; })
      .Case([](arith::MinNumFOp) { return arith::AtomicRMWKind::minnumf; })
      .Case([](arith::AddIOp) { return arith::AtomicRMWKind::addi; })
      .Case([](arith::MulIOp) { return arith::AtomicRMWKind::muli; })
      .Case([](arith::MaxSIOp) { return arith::AtomicRMWKind::maxs; })
      .Case([](arith::MinSIOp) { return arith::AtomicRMWKind::mins; })
      .Case([](arith::MaxUIOp) { return arith::AtomicRMWKind::maxu; })
      .Case([](arith::MinUIOp) { return arith::AtomicRMWKind::minu; })
      .Case([](arith::OrIOp) { return arith::AtomicRMWKind::ori; })
      .Case([](arith::AndIOp) { return arith::AtomicRMWKind::andi; })
      .Default([](Operation *) { return std::nullopt; });
}

/// For a single-output reduction body `yield comb(out, f(ins))`, the kind of
/// `comb`; the output block argument must feed only the combiner.
static FailureOr<arith::AtomicRMWKind> matchCombiner(linalg::GenericOp op,
                                                     std::string &why) {
  if (op.getNumDpsInits() != 1) {
    why = "reduction with several outputs";
    return failure();
  }
  Block *body = op.getBody();
  BlockArgument acc = body->getArgument(op.getNumDpsInputs());
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  Operation *comb = yield.getValues()[0].getDefiningOp();
  if (!comb || comb->getNumOperands() != 2 || !acc.hasOneUse() ||
      acc.getUses().begin()->getOwner() != comb) {
    why = "reduction body is not `combine(acc, f(inputs))`";
    return failure();
  }
  std::optional<arith::AtomicRMWKind> kind = getCombinerKind(comb);
  if (!kind) {
    why = "reduction combiner is not an associative arith op";
    return failure();
  }
  Type t = acc.getType();
  // 16-bit float partials are combined across threads in f32.
  if (!t.isF32() && !t.isInteger(32) && !t.isF16() && !t.isBF16()) {
    why = "reduction accumulator is not f32, f16, bf16 or i32";
    return failure();
  }
  return *kind;
}

/// True if `map` is (d0, ..., d{n-1}) over the first n of its dims.
static bool isLeadingIdentity(AffineMap map, unsigned n) {
  if (map.getNumResults() != n)
    return false;
  for (unsigned i = 0; i < n; ++i) {
    auto d = dyn_cast<AffineDimExpr>(map.getResult(i));
    if (!d || d.getPosition() != i)
      return false;
  }
  return true;
}

/// The access `map` on `v` expressed on `written`, when `v` is `written` or
/// a memref.expand_shape / collapse_shape of it that only adds or drops
/// unit dimensions; std::nullopt otherwise.
static std::optional<AffineMap> mapThroughUnitView(Value v, Value written,
                                                   AffineMap map) {
  if (v == written)
    return map;
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> exprs;
  if (auto expand = v.getDefiningOp<memref::ExpandShapeOp>()) {
    if (expand.getSrc() != written)
      return std::nullopt;
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      std::optional<int64_t> nonUnit;
      for (int64_t d : group)
        if (shape[d] != 1) {
          if (nonUnit)
            return std::nullopt;
          nonUnit = d;
        }
      exprs.push_back(nonUnit ? map.getResult(*nonUnit)
                              : getAffineConstantExpr(0, ctx));
    }
    return AffineMap::get(map.getNumDims(), 0, exprs, ctx);
  }
  if (auto collapse = v.getDefiningOp<memref::CollapseShapeOp>()) {
    if (collapse.getSrc() != written)
      return std::nullopt;
    ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
    for (auto [r, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      unsigned nonUnit = 0;
      for (int64_t d : group)
        nonUnit += shape[d] != 1;
      if (nonUnit > 1)
        return std::nullopt;
      for (int64_t d : group)
        exprs.push_back(shape[d] != 1 || (nonUnit == 0 && d == group.back())
                            ? map.getResult(r)
                            : getAffineConstantExpr(0, ctx));
    }
    return AffineMap::get(map.getNumDims(), 0, exprs, ctx);
  }
  return std::nullopt;
}

/// Classifies `op` against a row space, or fails with a reason.
static FailureOr<GroupOp> classify(linalg::GenericOp op, std::string &why) {
  if (!op.hasPureBufferSemantics()) {
    why = "not on buffers";
    return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic) || ranges.empty()) {
    why = "dynamic or rank-0 iteration space";
    return failure();
  }
  auto iters = op.getIteratorTypesArray();
  unsigned n = iters.size();
  for (unsigned i = 0; i + 1 < n; ++i)
    if (iters[i] != utils::IteratorType::parallel) {
      why = "reduction over a loop that is not the innermost";
      return failure();
    }
  GroupOp g{op, RowRole::Vector};
  if (iters[n - 1] == utils::IteratorType::reduction) {
    FailureOr<arith::AtomicRMWKind> kind = matchCombiner(op, why);
    if (failed(kind))
      return failure();
    g.role = RowRole::Reduce;
    g.kind = *kind;
  }
  return g;
}

/// Row space (outer, inner) of an op in role `role`; Scalar ops have the
/// whole loop space as outer.
static void rowSpace(const GroupOp &g, SmallVector<int64_t> &outer,
                     int64_t &inner) {
  SmallVector<int64_t> ranges = g.op.getStaticLoopRanges();
  if (g.role == RowRole::Scalar) {
    outer = ranges;
    inner = -1;
    return;
  }
  outer.assign(ranges.begin(), ranges.end() - 1);
  inner = ranges.back();
}

//===----------------------------------------------------------------------===//
// Group formation
//===----------------------------------------------------------------------===//

/// Tries to append `cand` to `group`; returns false (leaving the group
/// unchanged) if that would be illegal.
static bool tryAppendImpl(Group &group, GroupOp cand, std::string &why) {
  SmallVector<int64_t> outer;
  int64_t inner;
  rowSpace(cand, outer, inner);
  if (group.ops.empty()) {
    group.outer = outer;
    group.inner = inner;
  } else {
    SmallVector<int64_t> full = outer;
    if (inner >= 0)
      full.push_back(inner);
    bool sameRow = outer == group.outer && inner == group.inner;
    bool asScalar = cand.role == RowRole::Vector && full == group.outer &&
                    group.inner >= 0;
    bool groupWasScalar = group.inner < 0 && outer == group.outer;
    // A pointwise group over exactly this op's outer space (e.g. the fill
    // of a reduction's init) becomes the scalar part of a row group.
    SmallVector<int64_t> groupFull = group.outer;
    if (group.inner >= 0)
      groupFull.push_back(group.inner);
    // Only when every op of the group iterates over exactly that space.
    bool groupBecomesScalar =
        inner >= 0 && groupFull == outer && !group.hasReduce() &&
        llvm::all_of(group.ops, [&](const GroupOp &g) {
          return g.op.getNumLoops() == groupFull.size();
        });
    if (groupBecomesScalar) {
      for (GroupOp &g : group.ops)
        g.role = RowRole::Scalar;
      for (auto &entry : group.writtenIsVector)
        entry.second = false;
      group.outer = outer;
      group.inner = inner;
    } else if (asScalar) {
      cand.role = RowRole::Scalar;
      outer = full;
      inner = -1;
    } else if (groupWasScalar && inner >= 0) {
      // The group so far only holds scalar ops over `outer`; it becomes a
      // row group now.
      group.inner = inner;
    } else if (!sameRow) {
      why = "its iteration space differs from the group's row space";
      return false;
    }
  }
  unsigned nOuter = group.outer.size();
  unsigned nLoops = cand.op.getNumLoops();
  // Check every operand against the buffers the group already writes.
  DenseSet<Value> candReads, candWrites;
  for (OpOperand &operand : cand.op->getOpOperands()) {
    Value v = operand.get();
    if (!isa<MemRefType>(v.getType()))
      continue;
    Value root = getRootBuffer(v);
    bool isInit = cand.op.isDpsInit(&operand);
    AffineMap map = cand.op.getMatchingIndexingMap(&operand);
    auto it = group.written.find(root);
    bool usesOut =
        !isInit || !cand.op.getMatchingBlockArgument(&operand).use_empty() ||
        cand.role == RowRole::Reduce;
    if (it != group.written.end()) {
      // Internal buffer: the canonical map, possibly through a view that
      // only adds or drops unit dimensions.
      std::optional<AffineMap> rootMap = mapThroughUnitView(v, it->second, map);
      if (!rootMap) {
        why = "it reads a group result through a reshaped view";
        return false;
      }
      map = *rootMap;
      bool isVec = group.writtenIsVector.lookup(root);
      unsigned want = isVec ? nOuter + 1 : nOuter;
      if ((cand.role == RowRole::Scalar && isVec) ||
          !isLeadingIdentity(map, want) ||
          (isInit && (cand.role == RowRole::Vector) != isVec)) {
        why = "it reads a group result at other positions than the ones "
              "the producing thread holds (a broadcast or permutation of an "
              "intermediate)";
        return false;
      }
    } else if (isInit) {
      // A new output: it must be written with the canonical map, and must
      // not be a buffer the group already read from memory.
      if (group.readExternal.contains(root)) {
        why = "it overwrites a buffer the group reads";
        return false;
      }
      unsigned want = cand.role == RowRole::Vector ? nOuter + 1 : nOuter;
      if (!isLeadingIdentity(map, want) || map.getNumDims() != nLoops) {
        why = "its output is not written in row order";
        return false;
      }
      if (usesOut)
        candReads.insert(root);
    } else {
      candReads.insert(root);
    }
    if (isInit)
      candWrites.insert(root);
  }
  // An op may not overwrite a buffer it also reads through another operand.
  for (Value w : candWrites)
    for (OpOperand *in : cand.op.getDpsInputOperands())
      if (getRootBuffer(in->get()) == w && !group.written.contains(w)) {
        why = "it updates a buffer in place";
        return false;
      }
  for (Value r : candReads)
    if (!group.written.contains(r))
      group.readExternal.insert(r);
  for (OpOperand &out : cand.op.getDpsInitsMutable()) {
    Value root = getRootBuffer(out.get());
    group.written[root] = out.get();
    group.writtenIsVector[root] = cand.role == RowRole::Vector;
  }
  group.ops.push_back(cand);
  return true;
}

/// Transactional wrapper: the group is unchanged when the op does not fit.
static bool tryAppend(Group &group, GroupOp cand, std::string &why) {
  Group attempt = group;
  if (!tryAppendImpl(attempt, cand, why))
    return false;
  group = std::move(attempt);
  return true;
}

//===----------------------------------------------------------------------===//
// Code generation helpers
//===----------------------------------------------------------------------===//

namespace {
/// Per-thread state while emitting a row or elementwise kernel.
struct EmitState {
  explicit EmitState(Location loc) : loc(loc) {}
  Location loc;
  /// Outer loop ids of this thread's row.
  SmallVector<Value> outerIds;
  /// Inner index of the first element of each chunk.
  SmallVector<Value> chunkBase;
  /// Whether each chunk lies inside the row (null = always).
  SmallVector<Value> chunkValid;
  unsigned vec = 1;
  /// Shifted chunks (rows whose length is not a multiple of `vec`): chunk
  /// boundaries follow the buffer's `vec`-element alignment, so a row's
  /// first and last chunks are partial. Then, per chunk, the flat element
  /// index of its aligned start in row-shaped buffers and whether all its
  /// lanes lie in the row, and per lane whether it does.
  bool shifted = false;
  SmallVector<Value> chunkFlat;
  SmallVector<Value> chunkFull;
  /// Whether the chunk's aligned vector lies inside the row-shaped buffers
  /// (null = always).
  SmallVector<Value> chunkInBuffer;
  SmallVector<Value> laneValid;
  /// Row-shaped buffers seen as one dimension (for the aligned accesses).
  DenseMap<Value, Value> flatViews;
  /// Shape of the row space (outer dims, inner) a row-shaped buffer has.
  SmallVector<int64_t> rowShape;
  /// Start of the kernel body, where flat views are created.
  Block *kernelEntry = nullptr;
  /// Shifted mode, partial chunk: row-shaped buffers are accessed lane by
  /// lane through their flat view too (no vector may reach past the end).
  bool forceLanes = false;
  /// Current per-lane values of row-vector buffers: [chunk * vec + lane].
  DenseMap<Value, SmallVector<Value>> vecValues;
  /// Current value of row-scalar buffers.
  DenseMap<Value, Value> scalarValues;
  /// Loads of external buffers already emitted, by (memref, map, role): a
  /// second use (x in RMSNorm's reduction and its epilogue) reuses the
  /// registers instead of reading memory again. External buffers are never
  /// written by the group, so the cached values stay valid.
  DenseMap<std::tuple<Value, AffineMap, int>, SmallVector<Value>> loadCache;
  /// Passes over the chunks of a block's slice held in shared memory: the
  /// staged inputs' [chunks][threads][vec] views by (operand, map), and the
  /// staged chunk being read (null outside such passes).
  DenseMap<std::pair<Value, AffineMap>, Value> stagedViews;
  Value stagedChunk, stagedTid;
};
} // namespace

static Value cIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Whether `v`, accessed through `map`, is laid out like the row space:
/// identity layout, shape (outer dims..., inner), indexed by the loops in
/// order, so that element (row, j) sits at flat index row * inner + j.
static bool isRowShaped(Value v, AffineMap map, const EmitState &st) {
  auto mt = dyn_cast<MemRefType>(v.getType());
  return mt && mt.getLayout().isIdentity() && mt.hasStaticShape() &&
         map.isIdentity() && mt.getShape() == ArrayRef<int64_t>(st.rowShape);
}

/// `v` seen as one dimension (created once, at the first use).
static Value getFlatView(OpBuilder &b, EmitState &st, Value v) {
  auto it = st.flatViews.find(v);
  if (it != st.flatViews.end())
    return it->second;
  auto mt = cast<MemRefType>(v.getType());
  Value flat = v;
  if (mt.getRank() != 1) {
    // A reinterpret_cast rather than collapse_shape: the GPU lowering turns
    // it into LLVM directly (collapse_shape needs expand-strided-metadata).
    OpBuilder eb = OpBuilder::atBlockBegin(st.kernelEntry);
    auto flatType = MemRefType::get({mt.getNumElements()}, mt.getElementType(),
                                    AffineMap(), mt.getMemorySpace());
    flat = memref::ReinterpretCastOp::create(
        eb, st.loc, flatType, v, /*offset=*/0,
        ArrayRef<int64_t>{mt.getNumElements()}, ArrayRef<int64_t>{1});
  }
  st.flatViews[v] = flat;
  return flat;
}

/// `vec` consecutive elements of `memref` starting at `idx`: one aligned
/// vector load (the caller proved `vec`-element alignment) split into
/// lanes, or a scalar load when `vec` is 1.
static SmallVector<Value> loadLanes(OpBuilder &b, Location loc, Value memref,
                                    ValueRange idx, unsigned vec) {
  if (vec == 1)
    return {memref::LoadOp::create(b, loc, memref, idx)};
  Type et = cast<MemRefType>(memref.getType()).getElementType();
  Value v = vector::LoadOp::create(
      b, loc, VectorType::get({(int64_t)vec}, et), memref, idx,
      /*nontemporal=*/false, llvm::MaybeAlign(vec * getElementBytes(et)));
  SmallVector<Value> lanes;
  for (unsigned l = 0; l < vec; ++l)
    lanes.push_back(vector::ExtractOp::create(b, loc, v, l));
  return lanes;
}

static SmallVector<Value> loadOperandUncached(OpBuilder &b, EmitState &st,
                                              linalg::GenericOp op,
                                              OpOperand &operand, RowRole role,
                                              unsigned numChunks);

/// Loads operand `operand` of `op` for every lane of every chunk (vector
/// role) or once (scalar role); returns per-lane values (size 1 for scalar).
static SmallVector<Value> loadOperand(OpBuilder &b, EmitState &st,
                                      linalg::GenericOp op, OpOperand &operand,
                                      RowRole role, unsigned numChunks) {
  Value v = operand.get();
  if (!isa<MemRefType>(v.getType()))
    return SmallVector<Value>(role == RowRole::Scalar ? 1 : numChunks * st.vec,
                              v);
  Value root = getRootBuffer(v);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (!st.vecValues.count(root) && !st.scalarValues.count(root)) {
    auto key = std::make_tuple(v, map, role == RowRole::Scalar ? 0 : 1);
    auto it = st.loadCache.find(key);
    if (it != st.loadCache.end())
      return it->second;
    SmallVector<Value> lanes =
        loadOperandUncached(b, st, op, operand, role, numChunks);
    st.loadCache[key] = lanes;
    return lanes;
  }
  return loadOperandUncached(b, st, op, operand, role, numChunks);
}

static SmallVector<Value> loadOperandUncached(OpBuilder &b, EmitState &st,
                                              linalg::GenericOp op,
                                              OpOperand &operand, RowRole role,
                                              unsigned numChunks) {
  Value v = operand.get();
  Location loc = st.loc;
  Value root = getRootBuffer(v);
  unsigned nLoops = op.getNumLoops();
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (role == RowRole::Scalar) {
    if (auto it = st.scalarValues.find(root); it != st.scalarValues.end())
      return {it->second};
    SmallVector<Value> ivs(st.outerIds.begin(),
                           st.outerIds.begin() + nLoops);
    return {memref::LoadOp::create(b, loc, v, expandIndices(b, loc, map, ivs))};
  }
  if (auto it = st.vecValues.find(root); it != st.vecValues.end())
    return it->second;
  if (auto it = st.scalarValues.find(root); it != st.scalarValues.end())
    return SmallVector<Value>(numChunks * st.vec, it->second);
  unsigned innerDim = nLoops - 1;
  bool usesInner = map.isFunctionOfDim(innerDim);
  SmallVector<Value> lanes;
  if (!usesInner) {
    // Broadcast along the row: one load serves every lane.
    SmallVector<Value> ivs(st.outerIds);
    ivs.push_back(cIdx(b, loc, 0));
    Value s =
        memref::LoadOp::create(b, loc, v, expandIndices(b, loc, map, ivs));
    return SmallVector<Value>(numChunks * st.vec, s);
  }
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  bool contiguous = last && last.getPosition() == innerDim;
  if (st.shifted) {
    bool aligned = isRowShaped(v, map, st);
    for (unsigned c = 0; c < numChunks; ++c) {
      auto laneLoads = [&](OpBuilder &lb) {
        Value flat = getFlatView(lb, st, v);
        SmallVector<Value> out;
        for (unsigned l = 0; l < st.vec; ++l) {
          Value j = arith::AddIOp::create(lb, loc, st.chunkFlat[c],
                                          cIdx(lb, loc, l));
          j = arith::SelectOp::create(lb, loc, st.laneValid[c * st.vec + l],
                                      j, cIdx(lb, loc, 0));
          out.push_back(memref::LoadOp::create(lb, loc, flat, ValueRange{j}));
        }
        return out;
      };
      if (aligned && st.forceLanes) {
        llvm::append_range(lanes, laneLoads(b));
        continue;
      }
      if (aligned && st.chunkInBuffer.size() > c && st.chunkInBuffer[c]) {
        // The buffer's last aligned chunk may be short: lane by lane there.
        Type et = cast<MemRefType>(v.getType()).getElementType();
        auto ifOp = scf::IfOp::create(b, loc, SmallVector<Type>(st.vec, et),
                                      st.chunkInBuffer[c], true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          scf::YieldOp::create(b, loc,
                               loadLanes(b, loc, getFlatView(b, st, v),
                                         {st.chunkFlat[c]}, st.vec));
          b.setInsertionPointToStart(&ifOp.getElseRegion().front());
          scf::YieldOp::create(b, loc, laneLoads(b));
        }
        llvm::append_range(lanes, ifOp.getResults());
        continue;
      }
      if (aligned) {
        llvm::append_range(lanes, loadLanes(b, loc, getFlatView(b, st, v),
                                            {st.chunkFlat[c]}, st.vec));
        continue;
      }
      // Other operands along the row (a broadcast vector): lane by lane,
      // lanes outside the row read element 0.
      for (unsigned l = 0; l < st.vec; ++l) {
        Value j = arith::AddIOp::create(b, loc, st.chunkBase[c],
                                        cIdx(b, loc, l));
        j = arith::SelectOp::create(b, loc, st.laneValid[c * st.vec + l], j,
                                    cIdx(b, loc, 0));
        SmallVector<Value> ivs(st.outerIds);
        ivs.push_back(j);
        lanes.push_back(memref::LoadOp::create(
            b, loc, v, expandIndices(b, loc, map, ivs)));
      }
    }
    return lanes;
  }
  if (st.stagedChunk) {
    auto it = st.stagedViews.find({v, map});
    if (it != st.stagedViews.end())
      return loadLanes(b, loc, it->second,
                       {st.stagedChunk, st.stagedTid, cIdx(b, loc, 0)},
                       st.vec);
  }
  for (unsigned c = 0; c < numChunks; ++c) {
    Value base = st.chunkBase[c];
    if (st.chunkValid[c]) // Out-of-row chunks read element 0 instead.
      base = arith::SelectOp::create(b, loc, st.chunkValid[c], base,
                                     cIdx(b, loc, 0));
    SmallVector<Value> ivs(st.outerIds);
    ivs.push_back(base);
    if (contiguous && st.vec > 1) {
      llvm::append_range(
          lanes, loadLanes(b, loc, v, expandIndices(b, loc, map, ivs), st.vec));
      continue;
    }
    for (unsigned l = 0; l < st.vec; ++l) {
      SmallVector<Value> laneIvs(ivs);
      if (l)
        laneIvs.back() = arith::AddIOp::create(b, loc, base, cIdx(b, loc, l));
      lanes.push_back(memref::LoadOp::create(
          b, loc, v, expandIndices(b, loc, map, laneIvs)));
    }
  }
  return lanes;
}

/// Emits `g` for this thread, updating the state; reductions return the
/// thread-local partial in `partial`.
static void emitOp(OpBuilder &b, EmitState &st, const GroupOp &g,
                   unsigned numChunks, Value &partial) {
  linalg::GenericOp op = g.op;
  Location loc = st.loc;
  Block *body = op.getBody();
  unsigned nIn = op.getNumDpsInputs();
  SmallVector<SmallVector<Value>> ins;
  for (OpOperand *in : op.getDpsInputOperands())
    ins.push_back(loadOperand(b, st, op, *in, g.role, numChunks));
  SmallVector<SmallVector<Value>> outs;
  for (OpOperand &out : op.getDpsInitsMutable()) {
    BlockArgument arg = op.getMatchingBlockArgument(&out);
    Value root = getRootBuffer(out.get());
    if (g.role == RowRole::Reduce) {
      outs.push_back({});
      continue;
    }
    bool internal = st.vecValues.count(root) || st.scalarValues.count(root);
    if (arg.use_empty() && !internal) {
      unsigned n = g.role == RowRole::Scalar ? 1 : numChunks * st.vec;
      outs.push_back(SmallVector<Value>(
          n, ub::PoisonOp::create(b, loc, arg.getType()).getResult()));
      continue;
    }
    outs.push_back(loadOperand(b, st, op, out, g.role, numChunks));
  }
  auto laneIvs = [&](unsigned c, unsigned l) {
    SmallVector<Value> ivs(st.outerIds);
    if (g.role != RowRole::Scalar) {
      Value base = st.chunkBase[c];
      ivs.push_back(l ? arith::AddIOp::create(b, loc, base, cIdx(b, loc, l))
                            .getResult()
                      : base);
    }
    ivs.resize(op.getNumLoops());
    return ivs;
  };

  if (g.role == RowRole::Scalar) {
    SmallVector<Value> args;
    for (auto &i : ins)
      args.push_back(i[0]);
    for (auto &o : outs)
      args.push_back(o[0]);
    SmallVector<Value> res = cloneBody(b, op, args, laneIvs(0, 0));
    for (auto [k, out] : llvm::enumerate(op.getDpsInitsMutable()))
      st.scalarValues[getRootBuffer(out.get())] = res[k];
    return;
  }
  if (g.role == RowRole::Vector) {
    unsigned nOut = op.getNumDpsInits();
    SmallVector<SmallVector<Value>> results(nOut);
    for (unsigned c = 0; c < numChunks; ++c)
      for (unsigned l = 0; l < st.vec; ++l) {
        unsigned lane = c * st.vec + l;
        SmallVector<Value> args;
        for (auto &i : ins)
          args.push_back(i[lane]);
        for (auto &o : outs)
          args.push_back(o[lane]);
        SmallVector<Value> res = cloneBody(b, op, args, laneIvs(c, l));
        for (unsigned k = 0; k < nOut; ++k)
          results[k].push_back(res[k]);
      }
    for (auto [k, out] : llvm::enumerate(op.getDpsInitsMutable())) {
      Value root = getRootBuffer(out.get());
      st.scalarValues.erase(root);
      st.vecValues[root] = results[k];
    }
    return;
  }
  // Reduction: thread-local combine from the identity; masked chunks keep
  // the accumulator unchanged.
  Type accType = body->getArgument(nIn).getType();
  Value acc = arith::getIdentityValue(g.kind, accType, b, loc);
  for (unsigned c = 0; c < numChunks; ++c)
    for (unsigned l = 0; l < st.vec; ++l) {
      unsigned lane = c * st.vec + l;
      SmallVector<Value> args;
      for (auto &i : ins)
        args.push_back(i[lane]);
      args.push_back(acc);
      Value next = cloneBody(b, op, args, laneIvs(c, l))[0];
      Value valid = st.shifted ? st.laneValid[lane] : st.chunkValid[c];
      acc = valid ? arith::SelectOp::create(b, loc, valid, next, acc)
                        .getResult()
                  : next;
    }
  partial = acc;
}

//===----------------------------------------------------------------------===//
// Row kernels and elementwise kernels
//===----------------------------------------------------------------------===//

/// Whether `root` is an allocation used only by the ops of `group`.
static bool isGroupPrivate(Value root, const Group &group) {
  if (!root.getDefiningOp<memref::AllocOp>())
    return false;
  DenseSet<Operation *> members;
  for (const GroupOp &g : group.ops)
    members.insert(g.op);
  return llvm::all_of(root.getUsers(), [&](Operation *user) {
    return members.contains(user) || isa<memref::DeallocOp>(user);
  });
}

/// Widest vector width (elements) such that every row-vector access of the
/// group is aligned and the inner size is a multiple of it.
static unsigned chooseVectorWidth(const Group &group,
                                  const KernelTargetInfo &target,
                                  bool rowsMayBeMisaligned = false) {
  int64_t maxBytes = 1;
  for (const GroupOp &g : group.ops)
    for (OpOperand &operand : g.op->getOpOperands())
      if (auto mt = dyn_cast<MemRefType>(operand.get().getType()))
        maxBytes = std::max(maxBytes, getElementBytes(mt.getElementType()));
  unsigned vec = std::max<int64_t>(1, target.vectorBytes / maxBytes);
  while (!rowsMayBeMisaligned && vec > 1 && group.inner % vec != 0)
    vec /= 2;
  // A gather along the row (an AoS field, a strided read) gains nothing from
  // several lanes per thread and loses memory parallelism: one lane then.
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Scalar)
      continue;
    unsigned inner = g.op.getNumLoops() - 1;
    for (OpOperand &operand : g.op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      AffineMap m = g.op.getMatchingIndexingMap(&operand);
      if (!m.isFunctionOfDim(inner))
        continue;
      auto last = dyn_cast<AffineDimExpr>(m.getResults().back());
      if (!last || last.getPosition() != inner)
        return 1;
    }
  }
  return vec;
}

namespace {
/// Which results storeResults stores.
enum class StoreKind { All, RowVectors, RowScalars };
} // namespace

/// Stores the group's externally visible results for this thread.
static void storeResults(OpBuilder &b, EmitState &st, const Group &group,
                         unsigned numChunks, Value isRowLeader,
                         StoreKind kind = StoreKind::All) {
  Location loc = st.loc;
  for (auto [root, value] : group.written) {
    if (isGroupPrivate(root, group))
      continue;
    auto mt = cast<MemRefType>(value.getType());
    bool isScalar = st.scalarValues.count(root);
    if ((kind == StoreKind::RowVectors && isScalar) ||
        (kind == StoreKind::RowScalars && !isScalar))
      continue;
    if (auto it = st.scalarValues.find(root); it != st.scalarValues.end()) {
      OpBuilder::InsertionGuard guard(b);
      if (isRowLeader) {
        auto ifOp = scf::IfOp::create(b, loc, isRowLeader, false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      memref::StoreOp::create(b, loc, it->second, value, st.outerIds);
      continue;
    }
    SmallVector<Value> &lanes = st.vecValues[root];
    if (st.shifted) {
      bool aligned = isRowShaped(
          value, AffineMap::getMultiDimIdentityMap(mt.getRank(), b.getContext()),
          st);
      for (unsigned c = 0; c < numChunks; ++c) {
        OpBuilder::InsertionGuard guard(b);
        auto storeLanes = [&](OpBuilder &sb) {
          for (unsigned l = 0; l < st.vec; ++l) {
            OpBuilder::InsertionGuard g2(sb);
            auto ifOp = scf::IfOp::create(sb, loc, st.laneValid[c * st.vec + l],
                                          false);
            sb.setInsertionPointToStart(&ifOp.getThenRegion().front());
            if (aligned) {
              Value j = arith::AddIOp::create(sb, loc, st.chunkFlat[c],
                                              cIdx(sb, loc, l));
              memref::StoreOp::create(sb, loc, lanes[c * st.vec + l],
                                      getFlatView(sb, st, value),
                                      ValueRange{j});
              continue;
            }
            SmallVector<Value> idx(st.outerIds);
            idx.push_back(arith::AddIOp::create(sb, loc, st.chunkBase[c],
                                                cIdx(sb, loc, l)));
            memref::StoreOp::create(sb, loc, lanes[c * st.vec + l], value,
                                    idx);
          }
        };
        if (!aligned) {
          storeLanes(b);
          continue;
        }
        // Whole chunks in one aligned vector store; a row's partial first
        // and last chunks lane by lane (the rest of their aligned chunk
        // belongs to the neighbouring rows).
        auto ifOp = scf::IfOp::create(b, loc, st.chunkFull[c], true);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        auto vt = VectorType::get({(int64_t)st.vec}, mt.getElementType());
        SmallVector<Value> elems(lanes.begin() + c * st.vec,
                                 lanes.begin() + (c + 1) * st.vec);
        Value vec = vector::FromElementsOp::create(b, loc, vt, elems);
        vector::StoreOp::create(
            b, loc, vec, getFlatView(b, st, value), {st.chunkFlat[c]},
            /*nontemporal=*/false,
            llvm::MaybeAlign(st.vec * getElementBytes(mt.getElementType())));
        b.setInsertionPointToStart(&ifOp.getElseRegion().front());
        storeLanes(b);
      }
      continue;
    }
    for (unsigned c = 0; c < numChunks; ++c) {
      OpBuilder::InsertionGuard guard(b);
      if (st.chunkValid[c]) {
        auto ifOp = scf::IfOp::create(b, loc, st.chunkValid[c], false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      SmallVector<Value> idx(st.outerIds);
      idx.push_back(st.chunkBase[c]);
      if (st.vec > 1) {
        auto vt = VectorType::get({(int64_t)st.vec}, mt.getElementType());
        SmallVector<Value> elems(lanes.begin() + c * st.vec,
                                 lanes.begin() + (c + 1) * st.vec);
        Value vec = vector::FromElementsOp::create(b, loc, vt, elems);
        vector::StoreOp::create(
            b, loc, vec, value, idx, /*nontemporal=*/false,
            llvm::MaybeAlign(st.vec * getElementBytes(mt.getElementType())));
        continue;
      }
      memref::StoreOp::create(b, loc, lanes[c], value, idx);
    }
  }
}

/// Type in which partials of `t` travel between threads (shuffles and the
/// shared-memory exchange are 32-bit).
static Type exchangeType(Type t) {
  return t.isF16() || t.isBF16() ? Float32Type::get(t.getContext()) : t;
}

namespace {
/// A row split over the blocks of a thread-block cluster: each block holds
/// its slice of the row in registers and the blocks combine their totals
/// through distributed shared memory.
struct RowCluster {
  int64_t size = 1;
  /// This block's rank in the cluster.
  Value rank;
  /// Workgroup buffer [reductions] of exchange type: each block's total of
  /// each reduction, read by every block of the cluster. Persistent
  /// clusters (several rows each) alternate between two such buffers,
  /// [2][reductions], indexed by `parity`: a block publishing row k + 1's
  /// totals cannot overwrite row k's before every block has passed row
  /// k + 1's cluster barrier, after its reads of row k's.
  Value totals;
  Value parity;
  SmallVector<Value> at(OpBuilder &b, Location loc, unsigned slot) const {
    if (parity)
      return {parity, cIdx(b, loc, slot)};
    return {cIdx(b, loc, slot)};
  }
};
} // namespace

/// Publishes this block's totals (thread 0 stores each value in its slot of
/// the cluster's totals buffer), waits at a cluster barrier, and returns for
/// each value every block's, in rank order.
static SmallVector<SmallVector<Value>>
exchangeTotals(OpBuilder &b, Location loc, Value tid, const RowCluster &cluster,
               ArrayRef<std::pair<unsigned, Value>> totals) {
  {
    OpBuilder::InsertionGuard guard(b);
    Value isT0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, isT0, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    for (auto [slot, value] : totals)
      memref::StoreOp::create(b, loc, value, cluster.totals,
                              cluster.at(b, loc, slot));
  }
  ClusterBarrierOp::create(b, loc);
  Type elt = cast<MemRefType>(cluster.totals.getType()).getElementType();
  SmallVector<SmallVector<Value>> all(totals.size());
  for (int64_t r = 0; r < cluster.size; ++r)
    for (auto [k, total] : llvm::enumerate(totals))
      all[k].push_back(
          ClusterLoadOp::create(b, loc, elt, cluster.totals, cIdx(b, loc, r),
                                cluster.at(b, loc, total.first)));
  return all;
}

/// Combines the block totals `total` of reduction `slot` across the
/// cluster, in rank order (so that every block computes the same bits).
static Value clusterReduce(OpBuilder &b, Location loc, Value total,
                           arith::AtomicRMWKind kind, Value tid,
                           const RowCluster &cluster, unsigned slot) {
  SmallVector<Value> ranks =
      exchangeTotals(b, loc, tid, cluster, {{slot, total}})[0];
  Value acc = ranks[0];
  for (Value x : ArrayRef<Value>(ranks).drop_front())
    acc = arith::getReductionOp(kind, b, loc, acc, x);
  return acc;
}

/// Combines `partial` across the CTA (and the cluster, if any); every
/// thread gets the result.
static Value blockReduce(OpBuilder &b, Location loc, Value partial,
                         arith::AtomicRMWKind kind, unsigned threads,
                         unsigned warpSize, Value tid, Value smem,
                         unsigned slot, const RowCluster *cluster = nullptr) {
  Type origType = partial.getType();
  Type xType = exchangeType(origType);
  if (xType != origType) {
    Value wide = arith::ExtFOp::create(b, loc, xType, partial);
    Value r = blockReduce(b, loc, wide, kind, threads, warpSize, tid, smem,
                          slot, cluster);
    return arith::TruncFOp::create(b, loc, origType, r);
  }
  Value v = partial;
  for (unsigned off = warpSize / 2; off >= 1; off /= 2) {
    auto shfl = gpu::ShuffleOp::create(b, loc, v, off, warpSize,
                                       gpu::ShuffleMode::XOR);
    v = arith::getReductionOp(kind, b, loc, v, shfl.getShuffleResult());
  }
  Value total = v;
  if (threads > warpSize) {
    unsigned numWarps = threads / warpSize;
    Value cWarp = cIdx(b, loc, warpSize);
    Value lane = arith::RemUIOp::create(b, loc, tid, cWarp);
    Value warp = arith::DivUIOp::create(b, loc, tid, cWarp);
    Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          lane, cIdx(b, loc, 0));
    {
      OpBuilder::InsertionGuard guard(b);
      auto ifOp = scf::IfOp::create(b, loc, isLane0, false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      memref::StoreOp::create(b, loc, v, smem,
                              ValueRange{cIdx(b, loc, slot), warp});
    }
    gpu::BarrierOp::create(b, loc);
    total = arith::getIdentityValue(kind, v.getType(), b, loc);
    for (unsigned w = 0; w < numWarps; ++w) {
      Value x = memref::LoadOp::create(
          b, loc, smem, ValueRange{cIdx(b, loc, slot), cIdx(b, loc, w)});
      total = arith::getReductionOp(kind, b, loc, total, x);
    }
  }
  if (cluster && cluster->size > 1)
    total = clusterReduce(b, loc, total, kind, tid, *cluster, slot);
  return total;
}

/// Shifted chunks for row `row` (the row space's flat row index): row r
/// starts at flat element r * inner, h = that mod vec elements past an
/// aligned boundary; chunk k covers flat elements [r * inner - h + k * vec,
/// +vec), i.e. row elements [k * vec - h, +vec). `mayPassRow`: some chunks
/// lie wholly past the row (they then read the row's first chunk).
static void setupShiftedChunks(OpBuilder &b, EmitState &st, Value row,
                               ArrayRef<Value> chunks, int64_t inner,
                               int64_t rows, bool mayPassRow) {
  Location loc = st.loc;
  unsigned vec = st.vec;
  st.shifted = true;
  int64_t total = rows * inner;
  Value rowStart = arith::MulIOp::create(b, loc, row, cIdx(b, loc, inner));
  Value h = arith::RemUIOp::create(b, loc, rowStart, cIdx(b, loc, vec));
  Value alignedStart = arith::SubIOp::create(b, loc, rowStart, h);
  Value end = arith::AddIOp::create(b, loc, h, cIdx(b, loc, inner));
  for (Value chunk : chunks) {
    Value k0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    st.chunkBase.push_back(arith::SubIOp::create(b, loc, k0, h));
    st.chunkValid.push_back(Value());
    Value flat = arith::AddIOp::create(b, loc, alignedStart, k0);
    if (mayPassRow)
      flat = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k0, end),
          flat, alignedStart);
    st.chunkFlat.push_back(flat);
    // The aligned chunk of the buffers' last row may reach past their end
    // when the total size is not a multiple of the vector.
    st.chunkInBuffer.push_back(
        total % vec == 0
            ? Value()
            : arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::ule,
                  arith::AddIOp::create(b, loc, flat, cIdx(b, loc, vec)),
                  cIdx(b, loc, total))
                  .getResult());
    Value lo = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, k0, h);
    Value hi = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule,
        arith::AddIOp::create(b, loc, k0, cIdx(b, loc, vec)), end);
    st.chunkFull.push_back(arith::AndIOp::create(b, loc, lo, hi));
    for (unsigned l = 0; l < vec; ++l) {
      Value kl = arith::AddIOp::create(b, loc, k0, cIdx(b, loc, l));
      Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, kl, h);
      Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, kl, end);
      st.laneValid.push_back(arith::AndIOp::create(b, loc, ge, lt));
    }
  }
}

/// Per-thread state of a one-row-per-block kernel: block x is the row.
static void initRowState(OpBuilder &b, EmitState &st, gpu::LaunchOp launch,
                         const Group &group, unsigned vec,
                         Value row = Value()) {
  st.vec = vec;
  st.outerIds = delinearize(b, st.loc, row ? row : launch.getBlockIds().x,
                            group.outer);
  st.kernelEntry = &launch.getBody().front();
  st.rowShape.assign(group.outer.begin(), group.outer.end());
  st.rowShape.push_back(group.inner);
}

/// The shared-memory buffer of a row group's block reductions (one slot of
/// `warpSize` partials per reduction), or failure when the reductions do
/// not share one exchange type.
static FailureOr<MemRefType> getExchangeType(OpBuilder &b, const Group &group,
                                             const KernelTargetInfo &target,
                                             std::string &why) {
  unsigned numReduce = llvm::count_if(
      group.ops, [](const GroupOp &g) { return g.role == RowRole::Reduce; });
  Type smemElt;
  for (const GroupOp &g : group.ops) {
    if (g.role != RowRole::Reduce)
      continue;
    Type t = exchangeType(
        g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType());
    if (smemElt && t != smemElt) {
      why = "reductions of different accumulator types in one row";
      return failure();
    }
    smemElt = t;
  }
  return MemRefType::get(
      {numReduce, (int64_t)target.warpSize}, smemElt, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
}

/// The initial value of reduction `g` for this row: its output's current
/// row value, or the output buffer's element.
static Value getReductionInit(OpBuilder &b, EmitState &st, const GroupOp &g) {
  OpOperand &out = g.op.getDpsInitsMutable()[0];
  auto it = st.scalarValues.find(getRootBuffer(out.get()));
  if (it != st.scalarValues.end())
    return it->second;
  return memref::LoadOp::create(b, st.loc, out.get(), st.outerIds);
}

/// Combines the thread partial of reduction `g` across the CTA and with the
/// output's initial value; the row result becomes a scalar value.
static void finishReduction(OpBuilder &b, EmitState &st, const GroupOp &g,
                            Value partial, unsigned threads,
                            const KernelTargetInfo &target, Value tid,
                            Value smem, unsigned slot,
                            const RowCluster *cluster = nullptr) {
  Location loc = st.loc;
  Value total = blockReduce(b, loc, partial, g.kind, threads, target.warpSize,
                            tid, smem, slot, cluster);
  st.scalarValues[getRootBuffer(g.op.getDpsInitsMutable()[0].get())] =
      arith::getReductionOp(g.kind, b, loc, getReductionInit(b, st, g), total);
}

/// A buffer the group read from memory (a reduction's initial value) and
/// now overwrites: every thread of the row must have read it first.
static bool overwritesItsInput(const Group &group) {
  return llvm::any_of(group.written, [&](auto &entry) {
    return group.readExternal.contains(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
}

/// The elementwise ops of a row group so far, each with the row scalars as
/// they were at its position.
using VectorOpList =
    SmallVector<std::pair<const GroupOp *, DenseMap<Value, Value>>>;

/// One pass over `count` chunks per thread, one at a time: `setChunk(iv)`
/// points the state at the chunk, the elementwise ops are replayed for it,
/// then reduction `reduce` accumulates (the pass returns the thread
/// partial) or the row-shaped results are stored. Values of the pass stay
/// inside its loop.
static Value emitChunkPass(OpBuilder &b, EmitState &st, const Group &group,
                           const VectorOpList &vectorOps,
                           const GroupOp *reduce, int64_t count,
                           function_ref<void(Value)> setChunk) {
  Location loc = st.loc;
  SmallVector<Value> inits;
  if (reduce)
    inits.push_back(arith::getIdentityValue(
        reduce->kind,
        reduce->op.getBody()->getArgument(reduce->op.getNumDpsInputs())
            .getType(),
        b, loc));
  auto forOp = scf::ForOp::create(b, loc, cIdx(b, loc, 0),
                                  cIdx(b, loc, count), cIdx(b, loc, 1), inits);
  OpBuilder::InsertionGuard guard(b);
  // Without results the loop already ends in its yield.
  if (reduce)
    b.setInsertionPointToStart(forOp.getBody());
  else
    b.setInsertionPoint(forOp.getBody()->getTerminator());
  setChunk(forOp.getInductionVar());
  DenseMap<Value, Value> current = st.scalarValues;
  for (auto &[g, scalars] : vectorOps) {
    st.scalarValues = scalars;
    Value unused;
    emitOp(b, st, *g, 1, unused);
  }
  st.scalarValues = std::move(current);
  Value result;
  if (reduce) {
    Value partial;
    emitOp(b, st, *reduce, 1, partial);
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::getReductionOp(reduce->kind, b, loc,
                                         forOp.getRegionIterArgs()[0],
                                         partial)});
    result = forOp.getResult(0);
  } else {
    storeResults(b, st, group, 1, Value(), StoreKind::RowVectors);
  }
  st.vecValues.clear();
  st.loadCache.clear();
  return result;
}

/// Rows too long for registers: one CTA per row walks the row in tiles of
/// one `vec`-element chunk per thread, once per reduction (recomputing the
/// elementwise ops the reduction needs from the inputs) and once more for
/// the row-shaped results. Only the first pass reads the inputs from DRAM
/// when the rows in flight fit in L2; memopt-pipeline-loads then prefetches
/// the tiles through shared memory.
static FailureOr<gpu::LaunchOp>
emitStreamedRowKernel(RewriterBase &b, Group &group,
                      const KernelTargetInfo &target, std::string &why) {
  Location loc = group.ops.front().op.getLoc();
  unsigned vec = chooseVectorWidth(group, target);
  int64_t rows = 1;
  for (int64_t d : group.outer)
    rows *= d;
  int64_t threads = target.maxThreadsPerBlock;
  int64_t chunksPerRow = group.inner / vec;
  int64_t tiles = llvm::divideCeil(chunksPerRow, threads);
  FailureOr<MemRefType> exchange = getExchangeType(b, group, target, why);
  if (failed(exchange))
    return failure();
  b.setInsertionPoint(group.ops.back().op);
  gpu::LaunchOp launch =
      createLaunch(b, loc, {rows}, {threads}, TypeRange{*exchange});
  // One row in flight per multiprocessor (a reservation of over half its
  // shared memory, which memopt-pipeline-loads' rings then use): the rows
  // in flight, whose later passes re-read them, stay within L2 for twice
  // longer rows than with two.
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(launch);
    launch.getDynamicSharedMemorySizeMutable().assign(
        arith::ConstantOp::create(
            b, loc,
            b.getI32IntegerAttr(target.sharedMemoryPerMultiprocessor / 2 +
                                1024)));
  }
  Value tid = launch.getThreadIds().x;
  Value smem = launch.getWorkgroupAttributions().front();
  EmitState st(loc);
  initRowState(b, st, launch, group, vec);

  // The elementwise ops so far, each with the row scalars as they were at
  // its position (buffers are reused: softmax's maximum and sum share one).
  VectorOpList vectorOps;
  unsigned passes = 0;
  // One pass over the row's tiles: the elementwise ops so far, then either
  // reduction `reduce` (returns the thread partial) or the stores of the
  // row-shaped results.
  auto emitPass = [&](const GroupOp *reduce) -> Value {
    bool backwards = passes++ % 2 == 1;
    return emitChunkPass(b, st, group, vectorOps, reduce, tiles, [&](Value t) {
      // Every other pass walks the row backwards: it starts with the tiles
      // the previous pass read last, the likeliest to be still in L2.
      if (backwards)
        t = arith::SubIOp::create(b, loc, cIdx(b, loc, tiles - 1), t);
      Value chunk = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, t, cIdx(b, loc, threads)),
          tid);
      st.chunkBase = {
          arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec))};
      st.chunkValid = {tiles * threads == chunksPerRow
                           ? Value()
                           : arith::CmpIOp::create(b, loc,
                                                   arith::CmpIPredicate::ult,
                                                   chunk,
                                                   cIdx(b, loc, chunksPerRow))
                                 .getResult()};
    });
  };
  unsigned slot = 0;
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Vector) {
      vectorOps.push_back({&g, st.scalarValues});
      continue;
    }
    if (g.role == RowRole::Scalar) {
      Value unused;
      emitOp(b, st, g, 1, unused);
      continue;
    }
    Value partial = emitPass(&g);
    finishReduction(b, st, g, partial, threads, target, tid, smem, slot++);
  }
  if (overwritesItsInput(group))
    gpu::BarrierOp::create(b, loc);
  bool rowResults = llvm::any_of(group.written, [&](auto &entry) {
    return group.writtenIsVector.lookup(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
  if (rowResults)
    emitPass(nullptr);
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
  storeResults(b, st, group, 1, leader, StoreKind::RowScalars);
  return launch;
}

namespace {
/// Softmax's two reductions in one cluster exchange (online softmax): a
/// maximum M of the row, then the sum of exp(v - M) computed by one
/// elementwise op. Each block reduces its slice with its own maximum m_b;
/// the blocks then exchange (m_b, s_b) once and combine M = max m_b and
/// S = sum s_b * exp(m_b - M), and scale their exp values by exp(m_b - M).
struct OnlineSoftmax {
  /// Indices in the group of the exp op and of the sum.
  size_t exp, sum;
};
} // namespace

/// Whether the arg of `op`'s body for `operand` is used only as
/// `exp(v - arg)` whose result is the op's only yielded value, `v` being
/// `op`'s input read from `valuesRoot` through `valuesMap`.
static bool isExpOfDifference(linalg::GenericOp op, OpOperand &operand,
                              Value valuesRoot, AffineMap valuesMap) {
  if (op.getNumDpsInits() != 1)
    return false;
  BlockArgument m = op.getMatchingBlockArgument(&operand);
  if (!m.hasOneUse())
    return false;
  auto sub = dyn_cast<arith::SubFOp>(*m.getUsers().begin());
  if (!sub || sub.getRhs() != m || sub.getLhs() == m ||
      !sub->hasOneUse())
    return false;
  auto v = dyn_cast<BlockArgument>(sub.getLhs());
  if (!v || v.getOwner() != op.getBody() ||
      v.getArgNumber() >= op.getNumDpsInputs())
    return false;
  OpOperand *vIn = op.getDpsInputOperand(v.getArgNumber());
  if (getRootBuffer(vIn->get()) != valuesRoot ||
      op.getMatchingIndexingMap(vIn) != valuesMap)
    return false;
  auto exp = dyn_cast<math::ExpOp>(*sub->getUsers().begin());
  if (!exp || !exp->hasOneUse())
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(*exp->getUsers().begin());
  return yield && yield.getNumOperands() == 1;
}

/// Whether `op`'s body is exactly `yield combiner(in, acc)` over its one
/// input.
template <typename CombinerOp>
static bool isPlainReduction(linalg::GenericOp op) {
  Block *body = op.getBody();
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      body->getOperations().size() != 2)
    return false;
  auto comb = dyn_cast<CombinerOp>(body->front());
  if (!comb)
    return false;
  Value in = body->getArgument(0), acc = body->getArgument(1);
  bool args = (comb.getLhs() == in && comb.getRhs() == acc) ||
              (comb.getLhs() == acc && comb.getRhs() == in);
  return args && body->getTerminator()->getOperand(0) == comb.getResult();
}

/// Matches the online softmax form at reduction `i` of `group`.
static std::optional<OnlineSoftmax> matchOnlineSoftmax(const Group &group,
                                                       size_t i) {
  const GroupOp &max = group.ops[i];
  if (max.kind != arith::AtomicRMWKind::maxnumf &&
      max.kind != arith::AtomicRMWKind::maximumf)
    return std::nullopt;
  auto isF32Acc = [](const GroupOp &g) {
    return g.op.getBody()->getArgument(g.op.getNumDpsInputs()).getType()
        .isF32();
  };
  if (!isF32Acc(max) || !(isPlainReduction<arith::MaxNumFOp>(max.op) ||
                          isPlainReduction<arith::MaximumFOp>(max.op)))
    return std::nullopt;
  Value maxRoot = getRootBuffer(max.op.getDpsInitsMutable()[0].get());
  // The exp op must subtract the maximum from the values it was taken of.
  OpOperand *maxIn = max.op.getDpsInputOperand(0);
  Value valuesRoot = getRootBuffer(maxIn->get());
  AffineMap valuesMap = max.op.getMatchingIndexingMap(maxIn);
  auto reads = [](const GroupOp &g, Value root) {
    return llvm::any_of(g.op->getOpOperands(), [&](OpOperand &o) {
      return getRootBuffer(o.get()) == root &&
             (g.op.isDpsInput(&o) ||
              !g.op.getMatchingBlockArgument(&o).use_empty());
    });
  };
  auto writes = [](const GroupOp &g, Value root) {
    return llvm::any_of(g.op.getDpsInitsMutable(), [&](OpOperand &o) {
      return getRootBuffer(o.get()) == root;
    });
  };
  std::optional<size_t> exp;
  Value expRoot;
  // Whether the buffer still holds the maximum (softmax reuses it for the
  // sum: a fill in between overwrites it).
  bool maxLive = true;
  for (size_t k = i + 1; k < group.ops.size(); ++k) {
    const GroupOp &g = group.ops[k];
    bool readsMax = maxLive && reads(g, maxRoot);
    if (g.role == RowRole::Reduce) {
      // The sum of the exp values, from zero or any initial value.
      if (!exp || g.kind != arith::AtomicRMWKind::addf || !isF32Acc(g) ||
          !isPlainReduction<arith::AddFOp>(g.op) ||
          getRootBuffer(g.op.getDpsInputOperand(0)->get()) != expRoot ||
          readsMax)
        return std::nullopt;
      return OnlineSoftmax{*exp, k};
    }
    if (!readsMax) {
      // Other work in between must not see or replace a local exp value.
      if (exp && (reads(g, expRoot) || writes(g, expRoot)))
        return std::nullopt;
      if (writes(g, maxRoot))
        maxLive = false;
      continue;
    }
    if (exp || g.role != RowRole::Vector || writes(g, maxRoot))
      return std::nullopt;
    for (OpOperand *in : g.op.getDpsInputOperands())
      if (getRootBuffer(in->get()) == maxRoot &&
          !isExpOfDifference(g.op, *in, valuesRoot, valuesMap))
        return std::nullopt;
    exp = k;
    expRoot = getRootBuffer(g.op.getDpsInitsMutable()[0].get());
  }
  return std::nullopt;
}

/// Emits online softmax `online` whose maximum is reduction `i` of `group`
/// (already emitted up to its thread partial `partial`) through the sum,
/// exchanging the block's maximum and sum in slots `slot` and `slot + 1`.
/// A slice partly in shared memory passes `sharedPass` (one pass over its
/// chunks there, returning the thread partial of a reduction) and the
/// elementwise ops those passes replay (`vectorOps`): the exp values there
/// are recomputed by later passes, from the row's maximum.
static void emitOnlineSoftmax(OpBuilder &b, EmitState &st, const Group &group,
                              size_t i, const OnlineSoftmax &online,
                              Value partial, unsigned numChunks,
                              unsigned threads, const KernelTargetInfo &target,
                              Value tid, Value smem, const RowCluster &cluster,
                              unsigned slot, VectorOpList *vectorOps = nullptr,
                              function_ref<Value(const GroupOp *)> sharedPass =
                                  nullptr) {
  Location loc = st.loc;
  const GroupOp &g = group.ops[i];
  int64_t clusterSize = cluster.size;
  // The block's maximum (with the output's initial value), the exp values
  // and their sum from it, then one exchange for both.
  Value maxRoot = getRootBuffer(g.op.getDpsInitsMutable()[0].get());
  finishReduction(b, st, g, partial, threads, target, tid, smem, slot);
  Value localMax = st.scalarValues.lookup(maxRoot);
  // A slice that is -inf throughout has maximum -inf: its exp values are
  // taken from 0 instead (they are 0, and so is its sum), where
  // exp(-inf - -inf) would make the row NaN.
  Value ninf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  auto isNegInf = [&](Value m) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, ninf);
  };
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value localUsed =
      arith::SelectOp::create(b, loc, isNegInf(localMax), zero, localMax);
  st.scalarValues[maxRoot] = localUsed;
  bool maxOverwritten = false;
  size_t firstReplayed = vectorOps ? vectorOps->size() : 0;
  for (size_t k = i + 1; k < online.sum; ++k) {
    Value unused;
    if (vectorOps && group.ops[k].role == RowRole::Vector)
      vectorOps->push_back({&group.ops[k], st.scalarValues});
    emitOp(b, st, group.ops[k], numChunks, unused);
    for (OpOperand &out : group.ops[k].op.getDpsInitsMutable())
      maxOverwritten |= getRootBuffer(out.get()) == maxRoot;
  }
  const GroupOp &sum = group.ops[online.sum];
  Value sumPartial;
  emitOp(b, st, sum, numChunks, sumPartial);
  if (sharedPass)
    sumPartial = arith::getReductionOp(sum.kind, b, loc, sumPartial,
                                       sharedPass(&sum));
  Value localSum = blockReduce(b, loc, sumPartial, sum.kind, threads,
                               target.warpSize, tid, smem, slot + 1);
  SmallVector<SmallVector<Value>> all = exchangeTotals(
      b, loc, tid, cluster, {{slot, localMax}, {slot + 1, localSum}});
  ArrayRef<Value> maxes = all[0], sums = all[1];
  Value rowMax = maxes[0];
  for (int64_t r = 1; r < clusterSize; ++r)
    rowMax = arith::getReductionOp(g.kind, b, loc, rowMax, maxes[r]);
  // exp(m - M), 0 for a block whose maximum is -inf (its values are 0).
  auto scaleTo = [&](Value m) -> Value {
    Value e =
        math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, m, rowMax));
    return arith::SelectOp::create(b, loc, isNegInf(m), zero, e);
  };
  Value rowSum;
  for (int64_t r = 0; r < clusterSize; ++r) {
    Value part = arith::MulFOp::create(b, loc, sums[r], scaleTo(maxes[r]));
    rowSum =
        rowSum ? arith::AddFOp::create(b, loc, rowSum, part).getResult() : part;
  }
  // The exp values as if computed from the row's maximum.
  Value scale = scaleTo(localMax);
  Value expRoot =
      getRootBuffer(group.ops[online.exp].op.getDpsInitsMutable()[0].get());
  for (Value &lane : st.vecValues[expRoot])
    lane = arith::MulFOp::create(b, loc, lane, scale);
  // Later passes over the chunks in shared memory take the exp values from
  // the row's maximum directly (exp(v - M) = exp(v - m) * exp(m - M)), 0 in
  // place of an M of -inf as for the register lanes (whose scale is then
  // 0). Only the ops that read the block's maximum change: another op in
  // between may read the buffer after a fill replaced the maximum.
  if (vectorOps) {
    Value rowUsed =
        arith::SelectOp::create(b, loc, isNegInf(rowMax), zero, rowMax);
    for (auto &entry : llvm::drop_begin(*vectorOps, firstReplayed)) {
      auto it = entry.second.find(maxRoot);
      if (it != entry.second.end() && it->second == localUsed)
        it->second = rowUsed;
    }
  }
  Value sumRoot = getRootBuffer(sum.op.getDpsInitsMutable()[0].get());
  st.scalarValues[sumRoot] =
      arith::AddFOp::create(b, loc, getReductionInit(b, st, sum), rowSum);
  if (!maxOverwritten && sumRoot != maxRoot)
    st.scalarValues[maxRoot] = rowMax;
}

/// Static shared bytes of a row kernel's block: the warp partials of its
/// reductions (`exchange`, when the block has more than one warp) and
/// `totalsCopies` rows of their totals.
static int64_t blockStaticBytes(MemRefType exchange, bool warpPartials,
                                int64_t totalsCopies) {
  int64_t elements = totalsCopies * exchange.getDimSize(0);
  if (warpPartials)
    elements += exchange.getNumElements();
  return elements * getElementBytes(exchange.getElementType());
}

/// Most blocks of a cluster every sm_90 part schedules (larger ones are
/// non-portable and pack worse into the GPCs).
static constexpr int64_t kPortableClusterSize = 8;

/// Whether the elementwise ops or reductions of `group` compute a math
/// function (exp, log, tanh, erf, ...: special-function-unit work or a
/// polynomial each) of each element, as opposed to plain arithmetic, the
/// math ops that are arithmetic or bit tests too, and functions of values
/// the same along the row (RMSNorm's rsqrt of the row's mean square). Ops
/// in nested regions count whatever they read.
static bool hasTranscendentals(const Group &group) {
  auto isMathFunction = [](Operation *op) {
    return isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
           !isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::FmaOp,
                math::FloorOp, math::CeilOp, math::RoundOp,
                math::RoundEvenOp, math::TruncOp, math::IsNaNOp,
                math::IsInfOp, math::IsFiniteOp, math::IsNormalOp,
                math::CountLeadingZerosOp, math::CountTrailingZerosOp,
                math::CtPopOp, math::IPowIOp, math::FPowIOp>(op);
  };
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Scalar)
      continue;
    Block *body = g.op.getBody();
    unsigned rowDim = g.op.getNumLoops() - 1;
    DenseSet<Value> varying;
    for (OpOperand &operand : g.op->getOpOperands())
      if (g.op.getMatchingIndexingMap(&operand).isFunctionOfDim(rowDim) ||
          (g.role == RowRole::Reduce && g.op.isDpsInit(&operand)))
        varying.insert(g.op.getMatchingBlockArgument(&operand));
    for (Operation &op : body->without_terminator()) {
      bool nestedMath = false;
      for (Region &region : op.getRegions())
        region.walk([&](Operation *inner) {
          nestedMath |= isMathFunction(inner);
        });
      if (nestedMath)
        return true;
      auto index = dyn_cast<linalg::IndexOp>(op);
      if (!(index && index.getDim() == rowDim) &&
          llvm::none_of(op.getOperands(),
                        [&](Value v) { return varying.contains(v); }))
        continue;
      varying.insert(op.getResults().begin(), op.getResults().end());
      if (isMathFunction(&op))
        return true;
    }
  }
  return false;
}

namespace {
/// An input of a persistent row kernel whose slice of the next row is
/// copied into shared memory ahead of its use: operand `memref` read through
/// `map`, staged at byte `offset` of dynamic shared memory as
/// [chunks][threads][vec] elements (`view`).
struct StagedInput {
  Value memref;
  AffineMap map;
  Type elementType;
  int64_t offset = 0;
  Value view;
};
} // namespace

static SmallVector<StagedInput>
selectStagedInputs(const Group &group, const KernelTargetInfo &target,
                   int64_t numChunks, int64_t threads, unsigned vec,
                   int64_t blocksPerMultiprocessor, int64_t staticBytes,
                   int64_t &stagingBytes, bool &tooBig);

/// Plans persistent clusters for a row kernel split over clusters of
/// `clusterSize` blocks: as many clusters as fit on the target at once
/// (`gridClusters`), each prefetching its next row's slice of the inputs
/// read along the row into shared memory. Returns the inputs to stage (with
/// their offsets; `stagingBytes` in all), or none with a remark saying why.
static SmallVector<StagedInput>
planRowPrefetch(const Group &group, const KernelTargetInfo &target,
                int64_t rows, int64_t clusterSize, int64_t threads,
                int64_t numChunks, unsigned vec, bool shifted,
                int64_t blocksPerMultiprocessor, int64_t staticBytes,
                int64_t &gridClusters, int64_t &stagingBytes) {
  SmallVector<StagedInput> staged;
  gridClusters = rows;
  stagingBytes = 0;
  if (!target.rowPrefetch)
    return staged;
  Operation *anchor = group.ops.front().op;
  int64_t resident = std::max<int64_t>(
      1, target.multiprocessors * blocksPerMultiprocessor / clusterSize);
  if (rows <= resident) {
    anchor->emitRemark() << "rows not prefetched: " << rows
                         << " rows, at most one per cluster ("
                         << resident << " clusters fit at once)";
    return staged;
  }
  if (shifted) {
    anchor->emitRemark() << "rows not prefetched: a row of " << group.inner
                         << " elements is not a multiple of the " << vec
                         << "-element vector";
    return staged;
  }
  bool tooBig = false;
  staged = selectStagedInputs(group, target, numChunks, threads, vec,
                              blocksPerMultiprocessor, staticBytes,
                              stagingBytes, tooBig);
  if (staged.empty()) {
    anchor->emitRemark()
        << "rows not prefetched: "
        << (tooBig ? "a block's slice of an input does not fit in its share "
                     "of shared memory"
                   : "no input is read along the row");
    return staged;
  }
  gridClusters = resident;
  return staged;
}

/// The inputs of a row group read along the row (not a weight shared by
/// every row) whose `numChunks` chunks per thread fit, one after another,
/// in a block's share of shared memory (`stagingBytes` in all; `tooBig`
/// when some did not fit).
static SmallVector<StagedInput>
selectStagedInputs(const Group &group, const KernelTargetInfo &target,
                   int64_t numChunks, int64_t threads, unsigned vec,
                   int64_t blocksPerMultiprocessor, int64_t staticBytes,
                   int64_t &stagingBytes, bool &tooBig) {
  SmallVector<StagedInput> staged;
  stagingBytes = 0;
  // Shared memory of one block: its share of the multiprocessor's, less
  // the 1 KiB the system reserves per block and its static buffers.
  int64_t budget = std::min<int64_t>(
                       target.sharedMemoryPerMultiprocessor /
                           blocksPerMultiprocessor,
                       target.maxSharedMemoryPerBlock) -
                   1024 - staticBytes;
  for (const GroupOp &g : group.ops) {
    if (g.role == RowRole::Scalar)
      continue;
    unsigned innerDim = g.op.getNumLoops() - 1;
    for (OpOperand *in : g.op.getDpsInputOperands()) {
      Value v = in->get();
      auto mt = dyn_cast<MemRefType>(v.getType());
      Value root = getRootBuffer(v);
      if (!mt || !group.readExternal.contains(root) ||
          group.written.count(root))
        continue;
      AffineMap map = g.op.getMatchingIndexingMap(in);
      auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
      // Inputs along the row (a weight shared by every row stays in L2).
      if (!last || last.getPosition() != innerDim ||
          llvm::none_of(llvm::seq(0u, innerDim), [&](unsigned d) {
            return map.isFunctionOfDim(d);
          }))
        continue;
      if (llvm::any_of(staged, [&](const StagedInput &s) {
            return s.memref == v && s.map == map;
          }))
        continue;
      int64_t chunkBytes = vec * getElementBytes(mt.getElementType());
      if (chunkBytes != 4 && chunkBytes != 8 && chunkBytes != 16)
        continue;
      int64_t bytes = llvm::alignTo(numChunks * threads * chunkBytes, 128);
      if (stagingBytes + bytes > budget) {
        tooBig = true;
        continue;
      }
      staged.push_back({v, map, mt.getElementType(), stagingBytes, Value()});
      stagingBytes += bytes;
    }
  }
  return staged;
}

/// Waits until every asynchronous copy this thread issued has landed (an
/// empty group committed, then a wait for no group left in flight).
static void waitForOwnCopies(OpBuilder &b, Location loc) {
  auto drain = nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), ValueRange{});
  nvgpu::DeviceAsyncWaitOp::create(b, loc, drain.getAsyncToken(),
                                   b.getI32IntegerAttr(0));
}

/// Copies this thread's chunks of row `row` of every staged input into its
/// staging buffer (cp.async, zero-filled past nothing: chunks past the row
/// read the row's first chunk, as direct loads do) and commits them as one
/// group.
static void emitRowPrefetch(OpBuilder &b, Location loc, const Group &group,
                            ArrayRef<StagedInput> staged,
                            ArrayRef<Value> chunkBase,
                            ArrayRef<Value> chunkValid, Value row, Value tid,
                            unsigned vec) {
  int64_t numChunks = chunkBase.size();
  SmallVector<Value> outer = delinearize(b, loc, row, group.outer);
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  for (const StagedInput &in : staged) {
    int64_t bytes = vec * getElementBytes(in.elementType);
    for (int64_t c = 0; c < numChunks; ++c) {
      Value base = chunkBase[c];
      if (chunkValid[c])
        base = arith::SelectOp::create(b, loc, chunkValid[c], base,
                                       cIdx(b, loc, 0));
      SmallVector<Value> ivs(outer);
      ivs.push_back(base);
      tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
          b, loc, tokenType, in.view, ValueRange{cIdx(b, loc, c), tid,
                                                 cIdx(b, loc, 0)},
          in.memref, expandIndices(b, loc, in.map, ivs),
          b.getIndexAttr(vec), /*srcElements=*/Value(),
          bytes == 16 ? b.getUnitAttr() : UnitAttr()));
    }
  }
  nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType, tokens);
}

static FailureOr<gpu::LaunchOp> emitRowKernel(RewriterBase &b, Group &group,
                                              const KernelTargetInfo &target,
                                              std::string &why) {
  Location loc = group.ops.front().op.getLoc();
  unsigned vec = chooseVectorWidth(group, target);
  int64_t rows = 1;
  for (int64_t d : group.outer)
    rows *= d;
  // Rows whose length is not a multiple of the vector width: shifted chunks
  // keep 16-byte accesses (partial chunks at the row ends are masked; an
  // aligned chunk that would reach past a buffer's end is read lane by
  // lane).
  unsigned wide = chooseVectorWidth(group, target, /*rowsMayBeMisaligned=*/true);
  bool shifted = false;
  if (wide > vec && group.inner > (int64_t)wide) {
    vec = wide;
    shifted = true;
  }
  int64_t chunksPerRow = shifted ? llvm::divideCeil(group.inner + vec - 1, vec)
                                 : group.inner / vec;
  // Aim for `rowChunksPerThread` chunks per thread, threads a multiple of
  // the warp size.
  int64_t threads =
      llvm::divideCeil(chunksPerRow, target.rowChunksPerThread);
  threads = llvm::alignTo(threads, target.warpSize);
  threads = std::clamp<int64_t>(threads, target.warpSize,
                                target.maxThreadsPerBlock);
  int64_t numChunks = llvm::divideCeil(chunksPerRow, threads);
  // A row too long for one block's registers is split over the blocks of a
  // cluster, each holding a slice of whole chunks per thread; their totals
  // meet in distributed shared memory, so the row is read from DRAM once.
  int64_t clusterSize = 1;
  int64_t blocksPerMultiprocessor = 1;
  if (numChunks * vec > target.rowRegisterElements) {
    int64_t maxChunks =
        std::max<int64_t>(1, target.rowRegisterElements / vec);
    // Blocks of `clusterBlockThreads` (two per multiprocessor) where the
    // cluster limit allows, else of the largest size.
    int64_t blockThreads = target.clusterBlockThreads;
    clusterSize =
        llvm::divideCeil(chunksPerRow, maxChunks * blockThreads);
    if (clusterSize > (int64_t)target.maxClusterSize) {
      blockThreads = target.maxThreadsPerBlock;
      clusterSize =
          llvm::divideCeil(chunksPerRow, maxChunks * blockThreads);
    }
    if (clusterSize > (int64_t)target.maxClusterSize) {
      group.ops.front().op.emitRemark()
          << "row of " << group.inner << " elements streamed in tiles: "
          << "holding it in registers takes a cluster of " << clusterSize
          << " blocks, more than max-cluster-size ("
          << target.maxClusterSize << ")";
      return emitStreamedRowKernel(b, group, target, why);
    }
    blocksPerMultiprocessor = std::max<int64_t>(
        1, target.maxThreadsPerBlock / blockThreads);
    // Balance the slices: fewest chunks per thread, then fewest threads.
    numChunks =
        llvm::divideCeil(chunksPerRow, clusterSize * blockThreads);
    threads = llvm::alignTo(
        llvm::divideCeil(chunksPerRow, clusterSize * numChunks),
        target.warpSize);
    threads = std::clamp<int64_t>(threads, target.warpSize, blockThreads);
  }
  SmallVector<Type> wgTypes;
  FailureOr<MemRefType> exchange = getExchangeType(b, group, target, why);
  if (failed(exchange))
    return failure();
  // Part of each block's slice in shared memory (row-shared-elements per
  // thread, copied in with cp.async when the block starts and read back in
  // one pass per reduction and one for the results): fewer blocks hold a
  // row, so clusters are smaller.
  int64_t sharedChunks = 0;
  SmallVector<StagedInput> sliceStaged;
  int64_t sliceBytes = 0;
  // (Persistent clusters stage the next row instead: row-prefetch, when
  // asked for, takes the place of this.)
  if (clusterSize > 1 && target.rowSharedElements > 0 && !target.rowPrefetch) {
    int64_t maxChunks =
        std::max<int64_t>(1, target.rowRegisterElements / vec);
    int64_t extra =
        std::max<int64_t>(1, target.rowSharedElements / vec);
    int64_t blockThreads = target.clusterBlockThreads;
    // Blocks of half that size (four per multiprocessor hide one another's
    // reductions and exchanges better) where the cluster stays within the
    // portable 8 blocks: softmax over rows of 65536 f32 measured 91.3% of
    // copy in clusters of 4 blocks of 256 threads against 83.1% in clusters
    // of 2 of 512 (RMSNorm 93.1 against 94.5; run10 r4). Beyond 8 blocks
    // fewer of the multiprocessors' slots hold a whole cluster (rows of
    // 262144: 28 clusters of 16 x 256 fit at once, 448 of 528 slots,
    // against 30 of 8 x 512, 240 of 264), which only a math function of
    // each element (softmax's exp) repays:
    // softmax 88.1% of copy against 84.6, RMSNorm 81.8 against 89.2
    // (run11 r2).
    int64_t half = llvm::alignTo(blockThreads / 2, target.warpSize);
    int64_t halfCluster =
        llvm::divideCeil(chunksPerRow, (maxChunks + extra) * half);
    if (half < blockThreads && halfCluster <= (int64_t)target.maxClusterSize &&
        (halfCluster <= kPortableClusterSize || hasTranscendentals(group)))
      blockThreads = half;
    int64_t smaller = llvm::divideCeil(chunksPerRow,
                                       (maxChunks + extra) * blockThreads);
    // Worth it when fewer threads then hold a row (in a cluster the target
    // allows).
    if (smaller * blockThreads < clusterSize * threads &&
        smaller <= (int64_t)target.maxClusterSize) {
      int64_t total =
          llvm::divideCeil(chunksPerRow, smaller * blockThreads);
      int64_t t = std::clamp<int64_t>(
          llvm::alignTo(llvm::divideCeil(chunksPerRow, smaller * total),
                        target.warpSize),
          target.warpSize, blockThreads);
      int64_t perMultiprocessor =
          std::max<int64_t>(1, target.maxThreadsPerBlock / blockThreads);
      int64_t inRegisters = std::min(maxChunks, total);
      int64_t staticBytes =
          blockStaticBytes(*exchange, t > (int64_t)target.warpSize, 1);
      bool tooBig = false;
      SmallVector<StagedInput> in = selectStagedInputs(
          group, target, total - inRegisters, t, vec, perMultiprocessor,
          staticBytes, sliceBytes, tooBig);
      Operation *anchor = group.ops.front().op;
      if (shifted)
        anchor->emitRemark()
            << "row slices kept in registers: a row of " << group.inner
            << " elements is not a multiple of the " << vec
            << "-element vector";
      else if (in.empty())
        anchor->emitRemark()
            << "row slices kept in registers: "
            << (tooBig ? "a block's share of shared memory does not hold "
                         "the rest of its slice"
                       : "no input is read along the row");
      else {
        clusterSize = smaller;
        numChunks = inRegisters;
        sharedChunks = total - inRegisters;
        threads = t;
        blocksPerMultiprocessor = perMultiprocessor;
        sliceStaged = std::move(in);
      }
    }
  }
  if (threads > target.warpSize)
    wgTypes.push_back(*exchange);
  int64_t gridClusters = rows;
  SmallVector<StagedInput> staged;
  int64_t stagingBytes = 0;
  if (clusterSize > 1 && sharedChunks > 0) {
    wgTypes.push_back(MemRefType::get({exchange->getDimSize(0)},
                                      exchange->getElementType(), AffineMap(),
                                      exchange->getMemorySpace()));
  } else if (clusterSize > 1) {
    // Totals of two rows (see RowCluster).
    int64_t staticBytes =
        blockStaticBytes(*exchange, threads > (int64_t)target.warpSize, 2);
    staged = planRowPrefetch(group, target, rows, clusterSize, threads,
                             numChunks, vec, shifted, blocksPerMultiprocessor,
                             staticBytes, gridClusters, stagingBytes);
    SmallVector<int64_t> totalsShape;
    if (!staged.empty())
      totalsShape.push_back(2);
    totalsShape.push_back(exchange->getDimSize(0));
    wgTypes.push_back(MemRefType::get(totalsShape, exchange->getElementType(),
                                      AffineMap(),
                                      exchange->getMemorySpace()));
  }
  bool persistent = !staged.empty();

  // Insert at the last op: every view the group uses is defined by then,
  // and only allocations, views and constants sit between group members.
  b.setInsertionPoint(group.ops.back().op);
  Value dynamicBytes;
  if (persistent || sharedChunks > 0)
    dynamicBytes = arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(persistent ? stagingBytes : sliceBytes));
  gpu::LaunchOp launch = createLaunch(
      b, loc, {gridClusters * clusterSize}, {threads}, wgTypes, clusterSize);
  if (dynamicBytes)
    launch.getDynamicSharedMemorySizeMutable().assign(dynamicBytes);
  if (persistent)
    launch->setAttr(kPersistentAttrName, b.getUnitAttr());
  Value row = launch.getBlockIds().x;
  Value tid = launch.getThreadIds().x;
  Value smem;
  if (threads > target.warpSize)
    smem = launch.getWorkgroupAttributions().front();
  RowCluster cluster;
  cluster.size = clusterSize;
  // Chunks of the row before this block's slice.
  Value sliceStart = cIdx(b, loc, 0);
  if (clusterSize > 1) {
    // Consecutive blocks along x form a cluster: block x holds slice
    // x mod C of row x / C (of rows x / C, x / C + clusters, ... when the
    // clusters are persistent).
    Value cC = cIdx(b, loc, clusterSize);
    cluster.rank = arith::RemUIOp::create(b, loc, row, cC);
    cluster.totals = launch.getWorkgroupAttributions().back();
    row = arith::DivUIOp::create(b, loc, row, cC);
    sliceStart = arith::MulIOp::create(
        b, loc, cluster.rank,
        cIdx(b, loc, (numChunks + sharedChunks) * threads));
    if (blocksPerMultiprocessor > 1)
      OccupancyHintOp::create(b, loc, blocksPerMultiprocessor);
  }
  EmitState st(loc);
  bool mayPassRow =
      clusterSize * (numChunks + sharedChunks) * threads > chunksPerRow;
  if (shifted) {
    initRowState(b, st, launch, group, vec, row);
    SmallVector<Value> chunks;
    for (int64_t c = 0; c < numChunks; ++c)
      chunks.push_back(arith::AddIOp::create(
          b, loc, sliceStart,
          arith::AddIOp::create(b, loc, cIdx(b, loc, c * threads), tid)));
    setupShiftedChunks(b, st, row, chunks, group.inner, rows, mayPassRow);
  }
  for (int64_t c = 0; !shifted && c < numChunks; ++c) {
    // Chunk c of thread t covers inner [(c*T + t)*v, +v) of its slice:
    // coalesced.
    Value chunk = arith::AddIOp::create(
        b, loc, sliceStart,
        arith::AddIOp::create(b, loc, cIdx(b, loc, c * threads), tid));
    Value base = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    st.chunkBase.push_back(base);
    if (clusterSize > 1 ? mayPassRow : (c + 1) * threads > chunksPerRow)
      st.chunkValid.push_back(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, chunk,
          cIdx(b, loc, chunksPerRow)));
    else
      st.chunkValid.push_back(Value());
  }
  if (persistent) {
    // Each cluster walks rows first, first + clusters, ...: the slice of
    // the next row is copied into shared memory (cp.async) while this one
    // is reduced and written, so DRAM reads never wait for the exchange.
    Value dyn = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        exchange->getMemorySpace()));
    for (StagedInput &in : staged)
      in.view = memref::ViewOp::create(
          b, loc,
          MemRefType::get({numChunks, threads, (int64_t)vec}, in.elementType,
                          AffineMap(), exchange->getMemorySpace()),
          dyn, cIdx(b, loc, in.offset), ValueRange{});
    Value first = row;
    Value step = arith::DivUIOp::create(b, loc, launch.getGridSize().x,
                                        cIdx(b, loc, clusterSize));
    emitRowPrefetch(b, loc, group, staged, st.chunkBase, st.chunkValid, first,
                    tid, vec);
    auto rowLoop = scf::ForOp::create(b, loc, first, cIdx(b, loc, rows), step);
    b.setInsertionPoint(rowLoop.getBody()->getTerminator());
    // Rows begin and end at a barrier (the host emulation splits phases
    // there; the block's shared memory changes hands between rows).
    gpu::BarrierOp::create(b, loc);
    row = rowLoop.getInductionVar();
    Value iteration = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, row, first), step);
    cluster.parity =
        arith::RemUIOp::create(b, loc, iteration, cIdx(b, loc, 2));
    // This row's slice is in shared memory once this thread's copies are
    // done (each thread reads back only what it copied).
    waitForOwnCopies(b, loc);
    initRowState(b, st, launch, group, vec, row);
    for (StagedInput &in : staged) {
      SmallVector<Value> lanes;
      for (int64_t c = 0; c < numChunks; ++c)
        llvm::append_range(
            lanes, loadLanes(b, loc, in.view,
                             {cIdx(b, loc, c), tid, cIdx(b, loc, 0)}, vec));
      st.loadCache[std::make_tuple(in.memref, in.map, 1)] = lanes;
    }
    // The staging buffer is read before the next row's copies overwrite it.
    gpu::BarrierOp::create(b, loc);
    Value next = arith::AddIOp::create(b, loc, row, step);
    auto ifOp = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                              cIdx(b, loc, rows)),
        /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      emitRowPrefetch(b, loc, group, staged, st.chunkBase, st.chunkValid, next,
                      tid, vec);
    }
  } else if (!shifted) {
    initRowState(b, st, launch, group, vec, row);
  }
  // The part of the slice held in shared memory: chunks numChunks.. of the
  // block, copied in now (while the registers' chunks load) and read back
  // by passes that replay the elementwise ops for one chunk at a time.
  // Shared chunk `j` of this thread: its first element and whether it lies
  // in the row (null when every chunk does).
  auto sharedChunkAt = [&](Value j) -> std::pair<Value, Value> {
    Value chunk = arith::AddIOp::create(
        b, loc, sliceStart,
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc, arith::AddIOp::create(b, loc, j, cIdx(b, loc, numChunks)),
                cIdx(b, loc, threads)),
            tid));
    Value base = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
    Value valid;
    if (mayPassRow)
      valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                    cIdx(b, loc, chunksPerRow));
    return {base, valid};
  };
  SmallVector<Value> sharedBase, sharedValid;
  for (int64_t j = 0; j < sharedChunks; ++j) {
    auto [base, valid] = sharedChunkAt(cIdx(b, loc, j));
    sharedBase.push_back(base);
    sharedValid.push_back(valid);
  }
  if (sharedChunks > 0) {
    Value dyn = gpu::DynamicSharedMemoryOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                        exchange->getMemorySpace()));
    for (StagedInput &in : sliceStaged) {
      in.view = memref::ViewOp::create(
          b, loc,
          MemRefType::get({sharedChunks, threads, (int64_t)vec},
                          in.elementType, AffineMap(),
                          exchange->getMemorySpace()),
          dyn, cIdx(b, loc, in.offset), ValueRange{});
      st.stagedViews[{in.memref, in.map}] = in.view;
    }
    emitRowPrefetch(b, loc, group, sliceStaged, sharedBase, sharedValid, row,
                    tid, vec);
  }
  VectorOpList vectorOps;
  bool copiesDone = false;
  // One pass over the chunks in shared memory: the elementwise ops so far,
  // then reduction `reduce` (returns the thread partial) or the stores of
  // the row-shaped results.
  auto sharedPass = [&](const GroupOp *reduce) -> Value {
    if (!copiesDone) {
      // Each thread reads back only what it copied.
      waitForOwnCopies(b, loc);
      copiesDone = true;
    }
    // The register chunks' state stays for after the pass.
    SmallVector<Value> savedBase = st.chunkBase, savedValid = st.chunkValid;
    auto savedVec = std::move(st.vecValues);
    auto savedCache = std::move(st.loadCache);
    Value result = emitChunkPass(
        b, st, group, vectorOps, reduce, sharedChunks, [&](Value j) {
          auto [base, valid] = sharedChunkAt(j);
          st.chunkBase = {base};
          st.chunkValid = {valid};
          st.stagedChunk = j;
          st.stagedTid = tid;
        });
    st.chunkBase = std::move(savedBase);
    st.chunkValid = std::move(savedValid);
    st.vecValues = std::move(savedVec);
    st.loadCache = std::move(savedCache);
    st.stagedChunk = Value();
    return result;
  };
  unsigned slot = 0;
  for (size_t i = 0; i < group.ops.size(); ++i) {
    const GroupOp &g = group.ops[i];
    if (sharedChunks > 0 && g.role == RowRole::Vector)
      vectorOps.push_back({&g, st.scalarValues});
    Value partial;
    emitOp(b, st, g, numChunks, partial);
    if (g.role != RowRole::Reduce)
      continue;
    std::optional<OnlineSoftmax> online;
    if (clusterSize > 1)
      online = matchOnlineSoftmax(group, i);
    if (sharedChunks > 0)
      partial =
          arith::getReductionOp(g.kind, b, loc, partial, sharedPass(&g));
    if (!online) {
      finishReduction(b, st, g, partial, threads, target, tid, smem, slot++,
                      &cluster);
      continue;
    }
    if (sharedChunks > 0)
      emitOnlineSoftmax(b, st, group, i, *online, partial, numChunks, threads,
                        target, tid, smem, cluster, slot, &vectorOps,
                        sharedPass);
    else
      emitOnlineSoftmax(b, st, group, i, *online, partial, numChunks, threads,
                        target, tid, smem, cluster, slot);
    slot += 2;
    i = online->sum;
  }
  // Every block of the cluster has read what it overwrites (a reduction's
  // initial value) before any stores. Otherwise the blocks arrive at a
  // split cluster barrier once their last distributed shared memory read is
  // done and wait for it only before exiting (no block may exit while
  // another still reads its totals), so the stores do not wait. Persistent
  // clusters meet once more after their last row instead.
  bool clusterReads = clusterSize > 1 && slot > 0;
  bool overwrites = overwritesItsInput(group);
  if (overwrites && clusterSize > 1)
    ClusterBarrierOp::create(b, loc);
  else if (overwrites)
    gpu::BarrierOp::create(b, loc);
  else if (clusterReads && !persistent)
    ClusterArriveOp::create(b, loc);
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                       cIdx(b, loc, 0));
  if (clusterSize > 1)
    leader = arith::AndIOp::create(
        b, loc, leader,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, cluster.rank,
                              cIdx(b, loc, 0)));
  storeResults(b, st, group, numChunks, leader);
  bool rowResults = llvm::any_of(group.written, [&](auto &entry) {
    return group.writtenIsVector.lookup(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
  if (sharedChunks > 0 && rowResults)
    sharedPass(nullptr);
  if (persistent) {
    // The last row's barrier also keeps every block until the others'
    // last reads of its totals.
    ClusterBarrierOp::create(b, loc);
  } else if (clusterReads && !overwrites) {
    ClusterWaitOp::create(b, loc);
  }
  return launch;
}

/// A 1-D launch of `count` work items in blocks of up to `blockSize`
/// threads; `linear` is the item of this thread, and the builder is left
/// inside the guard that drops the threads past `count`.
static gpu::LaunchOp createLinearLaunch(OpBuilder &b, Location loc,
                                        int64_t count, int64_t blockSize,
                                        Value &linear) {
  int64_t threads = std::min<int64_t>(blockSize, count);
  int64_t grid = llvm::divideCeil(count, threads);
  gpu::LaunchOp launch = createLaunch(b, loc, {grid}, {threads});
  linear = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, threads)),
      launch.getThreadIds().x);
  if (grid * threads != count) {
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          linear, cIdx(b, loc, count));
    auto ifOp = scf::IfOp::create(b, loc, inRange, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  return launch;
}

/// Elementwise groups whose every buffer has the row space's shape, with a
/// size that is not a multiple of the vector width: the whole space is one
/// flat array in chunks of `vec`; every chunk but the last is one aligned
/// vector access, the last is accessed lane by lane under masks.
static FailureOr<gpu::LaunchOp>
emitFlatElementwiseKernel(RewriterBase &b, Group &group,
                          const KernelTargetInfo &target, int64_t rows,
                          unsigned vec) {
  SmallVector<int64_t> rowShape(group.outer.begin(), group.outer.end());
  rowShape.push_back(group.inner);
  for (const GroupOp &g : group.ops) {
    if (g.role != RowRole::Vector)
      return failure();
    if (!g.op.getBody()->getOps<linalg::IndexOp>().empty())
      return failure();
    for (OpOperand &operand : g.op->getOpOperands()) {
      auto mt = dyn_cast<MemRefType>(operand.get().getType());
      if (!mt)
        continue;
      if (!mt.getLayout().isIdentity() || !mt.hasStaticShape() ||
          mt.getShape() != ArrayRef<int64_t>(rowShape) ||
          !g.op.getMatchingIndexingMap(&operand).isIdentity())
        return failure();
    }
  }
  Location loc = group.ops.front().op.getLoc();
  int64_t total = rows * group.inner;
  int64_t chunks = llvm::divideCeil(total, (int64_t)vec);
  b.setInsertionPoint(group.ops.back().op);
  Value linear;
  gpu::LaunchOp launch =
      createLinearLaunch(b, loc, chunks, target.blockSize, linear);
  Value k0 = arith::MulIOp::create(b, loc, linear, cIdx(b, loc, vec));
  auto emitChunk = [&](bool partial) {
    EmitState st(loc);
    st.vec = vec;
    st.shifted = true;
    st.forceLanes = partial;
    st.kernelEntry = &launch.getBody().front();
    st.rowShape = rowShape;
    st.outerIds.assign(group.outer.size(), cIdx(b, loc, 0));
    st.chunkBase.push_back(k0);
    st.chunkValid.push_back(Value());
    st.chunkFlat.push_back(k0);
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    st.chunkFull.push_back(partial ? arith::ConstantIntOp::create(b, loc, 0, 1)
                                         .getResult()
                                   : yes);
    for (unsigned l = 0; l < vec; ++l)
      st.laneValid.push_back(
          partial ? arith::CmpIOp::create(
                        b, loc, arith::CmpIPredicate::ult,
                        arith::AddIOp::create(b, loc, k0, cIdx(b, loc, l)),
                        cIdx(b, loc, total))
                        .getResult()
                  : yes);
    for (const GroupOp &g : group.ops) {
      Value partialValue;
      emitOp(b, st, g, 1, partialValue);
    }
    storeResults(b, st, group, 1, Value());
  };
  if (total % vec == 0) {
    emitChunk(false);
    return launch;
  }
  Value full = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ule,
      arith::AddIOp::create(b, loc, k0, cIdx(b, loc, vec)),
      cIdx(b, loc, total));
  auto ifOp = scf::IfOp::create(b, loc, full, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    emitChunk(false);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    emitChunk(true);
  }
  return launch;
}

static FailureOr<gpu::LaunchOp>
emitElementwiseKernel(RewriterBase &b, Group &group,
                      const KernelTargetInfo &target, std::string &why) {
  Location loc = group.ops.front().op.getLoc();
  // A row-scalar buffer read from memory and rewritten in place is shared
  // by threads of several blocks here: no ordering between them exists.
  for (const GroupOp &g : group.ops)
    for (OpOperand &out : g.op.getDpsInitsMutable()) {
      Value root = getRootBuffer(out.get());
      if (group.inner >= 0 && !group.writtenIsVector.lookup(root) &&
          group.readExternal.contains(root)) {
        why = "a per-row value is updated in place by threads of several "
              "blocks";
        return failure();
      }
    }
  bool scalarOnly = group.inner < 0;
  unsigned vec = scalarOnly ? 1 : chooseVectorWidth(group, target);
  int64_t chunksPerRow = scalarOnly ? 1 : group.inner / vec;
  int64_t rows = 1;
  for (int64_t d : group.outer)
    rows *= d;
  bool shifted = false;
  if (!scalarOnly) {
    unsigned wide =
        chooseVectorWidth(group, target, /*rowsMayBeMisaligned=*/true);
    if (wide > vec) {
      if (FailureOr<gpu::LaunchOp> l =
              emitFlatElementwiseKernel(b, group, target, rows, wide);
          succeeded(l))
        return l;
      // Otherwise (row-scalar or broadcast operands) the rows' chunks are
      // shifted to the buffers' alignment as in row kernels.
      if (group.inner > (int64_t)wide) {
        shifted = true;
        vec = wide;
        chunksPerRow = llvm::divideCeil(group.inner + vec - 1, vec);
      }
    }
  }
  int64_t total = rows * chunksPerRow;
  b.setInsertionPoint(group.ops.back().op);
  Value linear;
  gpu::LaunchOp launch =
      createLinearLaunch(b, loc, total, target.blockSize, linear);
  EmitState st(loc);
  st.vec = vec;
  Value chunk = linear, row = linear;
  if (!scalarOnly) {
    chunk = arith::RemUIOp::create(b, loc, linear, cIdx(b, loc, chunksPerRow));
    row = arith::DivUIOp::create(b, loc, linear, cIdx(b, loc, chunksPerRow));
  }
  st.outerIds = delinearize(b, loc, row, group.outer);
  if (shifted) {
    st.kernelEntry = &launch.getBody().front();
    st.rowShape.assign(group.outer.begin(), group.outer.end());
    st.rowShape.push_back(group.inner);
    setupShiftedChunks(b, st, row, {chunk}, group.inner, rows,
                       /*mayPassRow=*/true);
  } else {
    st.chunkBase.push_back(
        arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec)));
    st.chunkValid.push_back(Value());
  }
  // Row-scalar results are stored by the thread holding the row's first
  // chunk.
  Value leader = scalarOnly ? Value()
                            : arith::CmpIOp::create(b, loc,
                                                    arith::CmpIPredicate::eq,
                                                    chunk, cIdx(b, loc, 0))
                                  .getResult();
  auto emitGroup = [&](EmitState &s) {
    for (const GroupOp &g : group.ops) {
      Value partial;
      emitOp(b, s, g, 1, partial);
    }
    storeResults(b, s, group, 1, leader);
  };
  if (!shifted || !st.chunkInBuffer[0]) {
    emitGroup(st);
    return launch;
  }
  // The chunk whose aligned vector would reach past the buffers' end runs
  // a lane-by-lane copy of the group; every other chunk the vector one.
  // (Two whole copies rather than a branch around each load: LLVM would
  // merge per-load branches back into scalar loads.)
  Value inBuffer = st.chunkInBuffer[0];
  st.chunkInBuffer[0] = Value();
  auto ifOp = scf::IfOp::create(b, loc, inBuffer, true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  EmitState vectorState = st;
  emitGroup(vectorState);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  EmitState laneState = st;
  laneState.forceLanes = true;
  emitGroup(laneState);
  return launch;
}

//===----------------------------------------------------------------------===//
// Tiled transpose
//===----------------------------------------------------------------------===//

static constexpr int64_t kTile = 32;
static constexpr int64_t kTileRows = 8;

namespace {
/// The transposed input of a tiled transpose: contiguous along loop `a`
/// instead of the innermost loop.
struct TransposeMatch {
  OpOperand *transposed = nullptr;
  unsigned a = 0;
};

/// A tiled transpose with elementwise work fused on either side: prologue
/// ops run over the transposed input's index space while the tile is
/// loaded (their result is the value staged), epilogue ops over the
/// transpose's output space while the tile is stored. Buffers produced and
/// consumed only inside are never allocated.
struct TileFusion {
  SmallVector<linalg::GenericOp> prologue;
  linalg::GenericOp op;
  TransposeMatch match;
  SmallVector<linalg::GenericOp> epilogue;
  /// Group state of `op` and the epilogue (for the legality checks of
  /// tryAppend) and of the prologue.
  Group epilogueGroup, prologueGroup;
};
} // namespace

/// An all-parallel op with identity output whose one transposed input is
/// contiguous along loop `a` instead of the innermost loop.
static FailureOr<TransposeMatch> matchTranspose(linalg::GenericOp op,
                                                std::string &why) {
  unsigned n = op.getNumLoops();
  if (n < 2 || op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1) {
    why = "not a single-output all-parallel op of rank >= 2";
    return failure();
  }
  OpOperand &out = op.getDpsInitsMutable()[0];
  if (!op.getMatchingIndexingMap(&out).isIdentity()) {
    why = "output map is not the identity";
    return failure();
  }
  TransposeMatch m;
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(in->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!map.isFunctionOfDim(n - 1) || map.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (last && last.getPosition() == n - 1)
      continue;
    if (!last || m.transposed) {
      why = "more than one transposed input, or a constant innermost index";
      return failure();
    }
    m.transposed = in;
    m.a = last.getPosition();
  }
  if (!m.transposed) {
    why = "no transposed input";
    return failure();
  }
  return m;
}

/// Evaluates the elementwise `ops` at loop position `ivs` (every op has an
/// identity output map over the same loops): values of buffers written by
/// earlier ops come from `held`, which receives each op's result; results
/// of buffers outside `privates` are stored. Operand `given` (if any) takes
/// `givenValue` instead of a load.
static void evalElementwiseChain(OpBuilder &b, Location loc,
                                 ArrayRef<linalg::GenericOp> ops,
                                 ValueRange ivs, DenseMap<Value, Value> &held,
                                 const DenseSet<Value> &privates,
                                 OpOperand *given = nullptr,
                                 Value givenValue = Value()) {
  for (linalg::GenericOp op : ops) {
    SmallVector<Value> args;
    for (OpOperand *in : op.getDpsInputOperands()) {
      Value v = in->get();
      if (in == given) {
        args.push_back(givenValue);
        continue;
      }
      if (!isa<MemRefType>(v.getType())) {
        args.push_back(v);
        continue;
      }
      if (Value h = held.lookup(getRootBuffer(v))) {
        args.push_back(h);
        continue;
      }
      args.push_back(memref::LoadOp::create(
          b, loc, v, expandIndices(b, loc, op.getMatchingIndexingMap(in), ivs)));
    }
    OpOperand &out = op.getDpsInitsMutable()[0];
    Value outRoot = getRootBuffer(out.get());
    BlockArgument outArg = op.getMatchingBlockArgument(&out);
    if (outArg.use_empty())
      args.push_back(ub::PoisonOp::create(b, loc, outArg.getType()));
    else if (Value h = held.lookup(outRoot))
      args.push_back(h);
    else
      args.push_back(memref::LoadOp::create(b, loc, out.get(), ivs));
    Value res = cloneBody(b, op, args, ivs)[0];
    held[outRoot] = res;
    if (!privates.contains(outRoot))
      memref::StoreOp::create(b, loc, res, out.get(), ivs);
  }
}

static SmallVector<linalg::GenericOp> getOps(const Group &group) {
  return llvm::map_to_vector(group.ops,
                             [](const GroupOp &g) { return g.op; });
}

/// Emits the tiled kernel of `fusion` at its last op; the caller erases the
/// ops and the private buffers.
static gpu::LaunchOp emitTransposeKernel(RewriterBase &b,
                                         const TileFusion &fusion,
                                         const DenseSet<Value> &privates) {
  linalg::GenericOp op = fusion.op;
  OpOperand *transposed = fusion.match.transposed;
  unsigned a = fusion.match.a;
  unsigned n = op.getNumLoops();
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  Type elt = cast<MemRefType>(transposed->get().getType()).getElementType();
  int64_t tilesB = llvm::divideCeil(ranges[n - 1], kTile);
  int64_t tilesA = llvm::divideCeil(ranges[a], kTile);
  SmallVector<int64_t> others;
  SmallVector<unsigned> otherDims;
  for (unsigned d = 0; d < n; ++d)
    if (d != a && d != n - 1) {
      others.push_back(ranges[d]);
      otherDims.push_back(d);
    }
  int64_t numOthers = 1;
  for (int64_t o : others)
    numOthers *= o;
  // The tile is read by column: 32-way bank conflicts as formed here,
  // repaired (padding or swizzle) by memopt-bank-fix.
  auto tileType = MemRefType::get(
      {kTile, kTile}, elt, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  // At the last op: every buffer the epilogue uses is defined there, and
  // only allocations, views and constants lie between the fused ops.
  b.setInsertionPoint(fusion.epilogue.empty() ? op : fusion.epilogue.back());
  gpu::LaunchOp launch =
      createLaunch(b, loc, {tilesB * tilesA * numOthers}, {kTile, kTileRows},
                   TypeRange{tileType});
  Value tile = launch.getWorkgroupAttributions().front();
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  SmallVector<Value> blk =
      delinearize(b, loc, launch.getBlockIds().x, {numOthers, tilesA, tilesB});
  SmallVector<Value> otherIds = delinearize(b, loc, blk[0], others);
  Value baseA = arith::MulIOp::create(b, loc, blk[1], cIdx(b, loc, kTile));
  Value baseB = arith::MulIOp::create(b, loc, blk[2], cIdx(b, loc, kTile));
  auto makeIvs = [&](Value ia, Value ib) {
    SmallVector<Value> ivs(n);
    for (auto [k, d] : llvm::enumerate(otherDims))
      ivs[d] = otherIds[k];
    ivs[a] = ia;
    ivs[n - 1] = ib;
    return ivs;
  };
  auto inBounds = [&](Value ia, Value ib) {
    Value okA = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ia,
                                      cIdx(b, loc, ranges[a]));
    Value okB = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, ib,
                                      cIdx(b, loc, ranges[n - 1]));
    return arith::AndIOp::create(b, loc, okA, okB).getResult();
  };
  bool exactA = ranges[a] % kTile == 0, exactB = ranges[n - 1] % kTile == 0;
  // Load phase: consecutive threads walk loop `a`, the input's contiguous
  // dimension; the prologue runs at the input's position.
  for (int64_t i = 0; i < kTile; i += kTileRows) {
    OpBuilder::InsertionGuard guard(b);
    Value lb = arith::AddIOp::create(b, loc, ty, cIdx(b, loc, i));
    Value ia = arith::AddIOp::create(b, loc, baseA, tx);
    Value ib = arith::AddIOp::create(b, loc, baseB, lb);
    if (!exactA || !exactB) {
      auto ifOp = scf::IfOp::create(b, loc, inBounds(ia, ib), false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    SmallVector<Value> idx = expandIndices(
        b, loc, op.getMatchingIndexingMap(transposed), makeIvs(ia, ib));
    Value x;
    if (fusion.prologue.empty()) {
      x = memref::LoadOp::create(b, loc, transposed->get(), idx);
    } else {
      DenseMap<Value, Value> held;
      evalElementwiseChain(b, loc, fusion.prologue, idx, held, privates);
      x = held.lookup(getRootBuffer(transposed->get()));
    }
    memref::StoreOp::create(b, loc, x, tile, ValueRange{lb, tx});
  }
  gpu::BarrierOp::create(b, loc);
  // Store phase: consecutive threads walk the innermost loop, the output's
  // contiguous dimension, and read the tile by column; the epilogue runs at
  // the output's position.
  for (int64_t i = 0; i < kTile; i += kTileRows) {
    OpBuilder::InsertionGuard guard(b);
    Value la = arith::AddIOp::create(b, loc, ty, cIdx(b, loc, i));
    Value ia = arith::AddIOp::create(b, loc, baseA, la);
    Value ib = arith::AddIOp::create(b, loc, baseB, tx);
    if (!exactA || !exactB) {
      auto ifOp = scf::IfOp::create(b, loc, inBounds(ia, ib), false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    SmallVector<Value> ivs = makeIvs(ia, ib);
    Value staged = memref::LoadOp::create(b, loc, tile, ValueRange{tx, la});
    SmallVector<linalg::GenericOp> chain{op};
    llvm::append_range(chain, fusion.epilogue);
    DenseMap<Value, Value> held;
    evalElementwiseChain(b, loc, chain, ivs, held, privates, transposed,
                         staged);
  }
  return launch;
}

/// Whether the ops of `group` can run as the prologue of the tiled
/// transpose `match` of `op`: elementwise ops over exactly the transposed
/// input's index space whose last result is that input, read by `op` and by
/// nothing else of it.
static bool canFuseTilePrologue(const Group &group, linalg::GenericOp op,
                                const TransposeMatch &match,
                                std::string &why) {
  Value in = match.transposed->get();
  auto inType = cast<MemRefType>(in.getType());
  SmallVector<int64_t> full = group.outer;
  if (group.inner >= 0)
    full.push_back(group.inner);
  if (group.hasReduce() ||
      llvm::any_of(group.ops, [&](const GroupOp &g) {
        return g.role != RowRole::Vector || g.op.getNumDpsInits() != 1 ||
               g.op.getNumLoops() != full.size();
      })) {
    why = "the group is not elementwise";
    return false;
  }
  if (ArrayRef<int64_t>(full) != inType.getShape()) {
    why = "the group's iteration space is not the transposed input's shape";
    return false;
  }
  if (!op.getMatchingIndexingMap(match.transposed).isPermutation()) {
    why = "the transposed input is broadcast";
    return false;
  }
  auto it = group.written.find(getRootBuffer(in));
  if (it == group.written.end() || it->second.getType() != in.getType()) {
    why = "the transpose does not read the group's result";
    return false;
  }
  for (OpOperand &operand : op->getOpOperands()) {
    if (&operand == match.transposed)
      continue;
    Value root = getRootBuffer(operand.get());
    if (group.written.contains(root) ||
        (op.isDpsInit(&operand) && group.readExternal.contains(root))) {
      why = "the transpose uses a group buffer at another position";
      return false;
    }
  }
  return true;
}

/// Appends `cand` to the epilogue of `fusion` when it is an elementwise op
/// over the transpose's output space that reads fused results only at the
/// positions the thread holds and its other inputs along the output's
/// contiguous dimension.
static bool tryAppendTileEpilogue(TileFusion &fusion, linalg::GenericOp cand,
                                  std::string &why) {
  FailureOr<GroupOp> g = classify(cand, why);
  if (failed(g))
    return false;
  if (g->role != RowRole::Vector || cand.getNumDpsInits() != 1 ||
      cand.getStaticLoopRanges() != fusion.op.getStaticLoopRanges()) {
    why = "it is not elementwise over the transpose's output space";
    return false;
  }
  unsigned n = cand.getNumLoops();
  for (OpOperand &operand : cand->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    Value root = getRootBuffer(operand.get());
    if (fusion.prologueGroup.written.contains(root) ||
        fusion.prologueGroup.readExternal.contains(root)) {
      why = "it uses a buffer of the transpose's prologue";
      return false;
    }
    if (cand.isDpsInit(&operand) || fusion.epilogueGroup.written.contains(root))
      continue;
    // The cost model: the tile's store phase puts consecutive lanes on the
    // innermost loop. An input that would be read there with poorer sector
    // efficiency than coalesced (a kernel of its own, tiled if need be,
    // reads it coalesced) stays out.
    std::optional<SectorUse> use = predictSectorUse(
        cand.getMatchingIndexingMap(&operand),
        cast<MemRefType>(operand.get().getType()), n - 1,
        cand.getStaticLoopRanges());
    if (!use || use->efficiency() < 1.0) {
      why = use ? "its fused read of an input would use " +
                      std::to_string(int(use->efficiency() * 100 + 0.5)) +
                      "% of each 32-byte sector"
                : "its input reads cannot be modelled";
      return false;
    }
  }
  return tryAppend(fusion.epilogueGroup, *g, why);
}

//===----------------------------------------------------------------------===//
// Column reductions
//===----------------------------------------------------------------------===//



static std::optional<arith::AtomicRMWKind>
atomicKindFor(arith::AtomicRMWKind k) {
  switch (k) {
  case arith::AtomicRMWKind::addf:
  case arith::AtomicRMWKind::addi:
  case arith::AtomicRMWKind::maximumf:
  case arith::AtomicRMWKind::minimumf:
  case arith::AtomicRMWKind::maxs:
  case arith::AtomicRMWKind::mins:
    return k;
  default:
    return std::nullopt;
  }
}

/// What the two column-reduction forms share: a [reduction, parallel] op
/// whose single output is indexed by the column.
struct ColumnReduceInfo {
  arith::AtomicRMWKind kind;
  int64_t rows, cols;
  unsigned vec;
  int64_t maxBytes;
};

static FailureOr<ColumnReduceInfo>
matchColumnReduce(linalg::GenericOp op, const KernelTargetInfo &target,
                  std::string &why) {
  auto iters = op.getIteratorTypesArray();
  if (iters.size() != 2 || iters[0] != utils::IteratorType::reduction ||
      iters[1] != utils::IteratorType::parallel) {
    why = "not a [reduction, parallel] op";
    return failure();
  }
  FailureOr<arith::AtomicRMWKind> kind = matchCombiner(op, why);
  if (failed(kind))
    return failure();
  OpOperand &out = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&out);
  if (outMap.getNumResults() != 1 ||
      !isa<AffineDimExpr>(outMap.getResult(0)) ||
      outMap.getDimPosition(0) != 1) {
    why = "output is not indexed by the column";
    return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  ColumnReduceInfo info{*kind, ranges[0], ranges[1], 1, 1};
  bool allContiguous = true;
  for (OpOperand *in : op.getDpsInputOperands()) {
    auto mt = dyn_cast<MemRefType>(in->get().getType());
    if (!mt)
      continue;
    info.maxBytes =
        std::max(info.maxBytes, getElementBytes(mt.getElementType()));
    AffineMap m = op.getMatchingIndexingMap(in);
    if (m.getNumResults() == 0 ||
        !isa<AffineDimExpr>(m.getResults().back()) ||
        m.getDimPosition(m.getNumResults() - 1) != 1)
      allContiguous = false;
  }
  if (allContiguous) {
    info.vec = std::max<int64_t>(1, target.vectorBytes / info.maxBytes);
    while (info.vec > 1 && info.cols % info.vec != 0)
      info.vec /= 2;
  }
  return info;
}

/// Loads of the inputs at row `r` (clamped by the caller) and columns
/// `col0 .. col0 + vec`, folded into `accs` through the op's body; `valid`
/// (may be null) masks the update.
static void accumulateRow(OpBuilder &b, Location loc, linalg::GenericOp op,
                          Value r, Value col0, unsigned vec, Value valid,
                          SmallVector<Value> &accs) {
  SmallVector<SmallVector<Value>> ins;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value v = in->get();
    if (!isa<MemRefType>(v.getType())) {
      ins.push_back(SmallVector<Value>(vec, v));
      continue;
    }
    AffineMap m = op.getMatchingIndexingMap(in);
    ins.push_back(loadLanes(b, loc, v, expandIndices(b, loc, m, {r, col0}),
                            vec));
  }
  for (unsigned l = 0; l < vec; ++l) {
    SmallVector<Value> args;
    for (auto &i : ins)
      args.push_back(i[l]);
    args.push_back(accs[l]);
    Value c = l ? arith::AddIOp::create(b, loc, col0, cIdx(b, loc, l))
                      .getResult()
                : col0;
    Value upd = cloneBody(b, op, args, {r, c})[0];
    accs[l] = valid ? arith::SelectOp::create(b, loc, valid, upd, accs[l])
                          .getResult()
                    : upd;
  }
}

/// Whole-column form: each block owns a slice of columns over all rows
/// (`colThreads` threads side by side cover `columnSliceBytes` contiguous
/// bytes of a row, the other threads of the block walk rows), partials are combined
/// with shuffles and shared memory and each column is stored once. No
/// atomics and no separate initialization kernel: `init` (the value of a
/// preceding fill, may be null) or the output's old value seeds the result.
static FailureOr<gpu::LaunchOp>
emitWholeColumnReduce(RewriterBase &b, linalg::GenericOp op,
                      const KernelTargetInfo &target,
                      const ColumnReduceInfo &info, Value init,
                      std::string &why) {
  unsigned vec = info.vec;
  int64_t colThreads = 1;
  while (colThreads * vec * info.maxBytes < (int64_t)target.columnSliceBytes &&
         colThreads < (int64_t)target.warpSize)
    colThreads *= 2;
  int64_t colChunks = info.cols / vec;
  int64_t colBlocks = llvm::divideCeil(colChunks, colThreads);
  if (colBlocks < (int64_t)target.multiprocessors) {
    why = "too few column slices (" + std::to_string(colBlocks) +
          ") to give every multiprocessor a block";
    return failure();
  }
  int64_t threads = target.blockSize;
  if (threads % target.warpSize != 0 || threads < (int64_t)target.warpSize) {
    why = "block size is not a multiple of the warp size";
    return failure();
  }
  int64_t rowLanes = threads / colThreads;
  int64_t numWarps = threads / target.warpSize;
  int64_t unroll = target.columnUnroll;
  Location loc = op.getLoc();
  OpOperand &out = op.getDpsInitsMutable()[0];
  Block *body = op.getBody();
  Type accType = body->getArgument(op.getNumDpsInputs()).getType();
  Type xType = exchangeType(accType);
  auto smemType = MemRefType::get(
      {numWarps, colThreads * vec}, xType, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  b.setInsertionPoint(op);
  gpu::LaunchOp launch =
      createLaunch(b, loc, {colBlocks}, {threads}, TypeRange{smemType});
  Value smem = launch.getWorkgroupAttributions().front();
  Value tid = launch.getThreadIds().x;
  Value ct = arith::RemUIOp::create(b, loc, tid, cIdx(b, loc, colThreads));
  Value rl = arith::DivUIOp::create(b, loc, tid, cIdx(b, loc, colThreads));
  Value chunk = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, colThreads)),
      ct);
  // Threads past the last column load the last chunk again (every thread
  // takes part in the barrier) and store nothing.
  if (colBlocks * colThreads != colChunks)
    chunk = arith::MinUIOp::create(b, loc, chunk, cIdx(b, loc, colChunks - 1));
  Value col0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
  SmallVector<Value> inits(
      vec, arith::getIdentityValue(info.kind, accType, b, loc));
  int64_t step = rowLanes * unroll;
  bool exact = info.rows % step == 0;
  auto loop = scf::ForOp::create(
      b, loc, cIdx(b, loc, 0), cIdx(b, loc, info.rows), cIdx(b, loc, step),
      inits, [&](OpBuilder &nb, Location, Value r0, ValueRange accIn) {
        SmallVector<Value> accs(accIn.begin(), accIn.end());
        Value base = arith::AddIOp::create(nb, loc, r0, rl);
        for (int64_t u = 0; u < unroll; ++u) {
          Value r = arith::AddIOp::create(nb, loc, base,
                                          cIdx(nb, loc, u * rowLanes));
          Value ok;
          if (!exact) {
            ok = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult, r,
                                       cIdx(nb, loc, info.rows));
            r = arith::SelectOp::create(nb, loc, ok, r, cIdx(nb, loc, 0));
          }
          accumulateRow(nb, loc, op, r, col0, vec, ok, accs);
        }
        scf::YieldOp::create(nb, loc, accs);
      });
  // Threads of a warp with the same column chunk differ in the lane bits
  // above log2(colThreads): fold those with xor shuffles, then one partial
  // per warp goes through shared memory.
  Value lane = arith::RemUIOp::create(b, loc, tid, cIdx(b, loc, target.warpSize));
  Value warp = arith::DivUIOp::create(b, loc, tid, cIdx(b, loc, target.warpSize));
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                       cIdx(b, loc, colThreads));
  SmallVector<Value> partials;
  for (unsigned l = 0; l < vec; ++l) {
    Value v = loop.getResult(l);
    if (xType != accType)
      v = arith::ExtFOp::create(b, loc, xType, v);
    for (int64_t off = target.warpSize / 2; off >= colThreads; off /= 2) {
      auto shfl = gpu::ShuffleOp::create(b, loc, v, off, target.warpSize,
                                         gpu::ShuffleMode::XOR);
      v = arith::getReductionOp(info.kind, b, loc, v, shfl.getShuffleResult());
    }
    partials.push_back(v);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifOp = scf::IfOp::create(b, loc, leader, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value slot0 = arith::MulIOp::create(b, loc, ct, cIdx(b, loc, vec));
    for (unsigned l = 0; l < vec; ++l) {
      Value slot = arith::AddIOp::create(b, loc, slot0, cIdx(b, loc, l));
      memref::StoreOp::create(b, loc, partials[l], smem,
                              ValueRange{warp, slot});
    }
  }
  gpu::BarrierOp::create(b, loc);
  // The first colThreads * vec threads each finish one column.
  Value c = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, colThreads * vec)),
      tid);
  Value owns = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                     cIdx(b, loc, colThreads * vec));
  if (colBlocks * colThreads * vec != info.cols)
    owns = arith::AndIOp::create(
        b, loc, owns,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, c,
                              cIdx(b, loc, info.cols)));
  auto ifOp = scf::IfOp::create(b, loc, owns, false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value total = arith::getIdentityValue(info.kind, xType, b, loc);
  for (int64_t w = 0; w < numWarps; ++w) {
    Value x = memref::LoadOp::create(b, loc, smem,
                                     ValueRange{cIdx(b, loc, w), tid});
    total = arith::getReductionOp(info.kind, b, loc, total, x);
  }
  if (xType != accType)
    total = arith::TruncFOp::create(b, loc, accType, total);
  Value seed = init ? init
                    : memref::LoadOp::create(b, loc, out.get(), ValueRange{c})
                          .getResult();
  Value result = arith::getReductionOp(info.kind, b, loc, seed, total);
  memref::StoreOp::create(b, loc, result, out.get(), ValueRange{c});
  b.eraseOp(op);
  return launch;
}

/// Row-sliced form for outputs too narrow to fill the GPU by columns: each
/// thread owns `vec` columns, each block a slice of rows; partials are
/// combined into the (initialized) output with atomics.
static FailureOr<gpu::LaunchOp>
emitAtomicColumnReduce(RewriterBase &b, linalg::GenericOp op,
                       const KernelTargetInfo &target,
                       const ColumnReduceInfo &info, std::string &why) {
  std::optional<arith::AtomicRMWKind> atomic = atomicKindFor(info.kind);
  if (!atomic) {
    why = "combiner has no atomic form";
    return failure();
  }
  OpOperand &out = op.getDpsInitsMutable()[0];
  int64_t rowsTotal = info.rows, cols = info.cols;
  unsigned vec = info.vec;
  Location loc = op.getLoc();
  int64_t colChunks = cols / vec;
  int64_t threads = std::min<int64_t>(target.blockSize,
                                      llvm::alignTo(colChunks, target.warpSize));
  int64_t colBlocks = llvm::divideCeil(colChunks, threads);
  int64_t rowBlocks = llvm::divideCeil(rowsTotal, (int64_t)target.columnRowsPerBlock);
  if (rowBlocks > 65535) {
    why = "too many row slices for the grid's y dimension";
    return failure();
  }
  b.setInsertionPoint(op);
  gpu::LaunchOp launch =
      createLaunch(b, loc, {colBlocks, rowBlocks}, {threads});
  Value chunk = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cIdx(b, loc, threads)),
      launch.getThreadIds().x);
  if (colBlocks * threads != colChunks) {
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                     cIdx(b, loc, colChunks));
    auto ifOp = scf::IfOp::create(b, loc, ok, false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  }
  Value col0 = arith::MulIOp::create(b, loc, chunk, cIdx(b, loc, vec));
  Value rowStart = arith::MulIOp::create(b, loc, launch.getBlockIds().y,
                                         cIdx(b, loc, (int64_t)target.columnRowsPerBlock));
  Value rowEnd = arith::MinUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, rowStart,
                            cIdx(b, loc, (int64_t)target.columnRowsPerBlock)),
      cIdx(b, loc, rowsTotal));
  Block *body = op.getBody();
  Type accType = body->getArgument(op.getNumDpsInputs()).getType();
  SmallVector<Value> inits(
      vec, arith::getIdentityValue(info.kind, accType, b, loc));
  // Unrolled so that each thread has `columnUnroll` independent loads in
  // flight; rows past the slice are clamped for the load and masked out of
  // the accumulation.
  int64_t unroll = target.columnUnroll;
  auto loop = scf::ForOp::create(
      b, loc, rowStart, rowEnd, cIdx(b, loc, unroll), inits,
      [&](OpBuilder &nb, Location, Value r, ValueRange accIn) {
        SmallVector<Value> accs(accIn.begin(), accIn.end());
        for (int64_t u = 0; u < unroll; ++u) {
          Value ru = arith::AddIOp::create(nb, loc, r, cIdx(nb, loc, u));
          Value ok = arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult,
                                           ru, rowEnd);
          Value rc = arith::SelectOp::create(nb, loc, ok, ru, rowStart);
          accumulateRow(nb, loc, op, rc, col0, vec, ok, accs);
        }
        scf::YieldOp::create(nb, loc, accs);
      });
  for (unsigned l = 0; l < vec; ++l) {
    Value c = l ? arith::AddIOp::create(b, loc, col0, cIdx(b, loc, l))
                      .getResult()
                : col0;
    memref::AtomicRMWOp::create(b, loc, *atomic, loop.getResult(l), out.get(),
                                ValueRange{c});
  }
  b.eraseOp(op);
  return launch;
}


/// A 2-D reduction over the outer loop (iterators [reduction, parallel]):
/// the whole-column form when the columns alone fill the GPU, else the
/// row-sliced form with atomics. `fillValue` is the value a fill of the
/// output just before the op writes (may be null); the whole-column form
/// absorbs it, and reports that through `absorbedFill`.
static FailureOr<gpu::LaunchOp>
emitColumnReduceKernel(RewriterBase &b, linalg::GenericOp op,
                       const KernelTargetInfo &target, Value fillValue,
                       bool &absorbedFill, std::string &why) {
  absorbedFill = false;
  FailureOr<ColumnReduceInfo> info = matchColumnReduce(op, target, why);
  if (failed(info))
    return failure();
  std::string whyWhole;
  FailureOr<gpu::LaunchOp> launch =
      emitWholeColumnReduce(b, op, target, *info, fillValue, whyWhole);
  if (succeeded(launch)) {
    absorbedFill = fillValue != nullptr;
    return launch;
  }
  launch = emitAtomicColumnReduce(b, op, target, *info, why);
  if (failed(launch))
    why = "whole columns: " + whyWhole + "; row slices: " + why;
  return launch;
}

/// The value a fill-like op (no memref inputs, all parallel, identity
/// output, body yielding a value from outside or a scalar input) writes to
/// every element of its output, or null.
static Value getFillValue(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return {};
  for (OpOperand *in : op.getDpsInputOperands())
    if (isa<ShapedType>(in->get().getType()))
      return {};
  Block *body = op.getBody();
  Value y = cast<linalg::YieldOp>(body->getTerminator()).getValues()[0];
  if (auto arg = dyn_cast<BlockArgument>(y)) {
    if (arg.getOwner() != body || arg.getArgNumber() >= op.getNumDpsInputs())
      return arg.getOwner() == body ? Value() : y;
    return op.getDpsInputOperand(arg.getArgNumber())->get();
  }
  if (y.getParentBlock() == body)
    return {};
  return y;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// The buffers written by `group` that nothing outside it uses.
static DenseSet<Value> getPrivateBuffers(const Group &group) {
  DenseSet<Value> privates;
  for (auto [root, value] : group.written)
    if (isGroupPrivate(root, group))
      privates.insert(root);
  return privates;
}

/// Erases the fused `ops` (in program order) and the allocations of
/// `privates` with their remaining users.
static void eraseFusedOps(RewriterBase &rewriter,
                          ArrayRef<linalg::GenericOp> ops,
                          const DenseSet<Value> &privates) {
  for (linalg::GenericOp op : llvm::reverse(ops))
    rewriter.eraseOp(op);
  for (Value root : privates) {
    Operation *alloc = root.getDefiningOp();
    for (Operation *user : llvm::make_early_inc_range(root.getUsers()))
      rewriter.eraseOp(user);
    rewriter.eraseOp(alloc);
  }
}

static LogicalResult materializeGroup(RewriterBase &rewriter, Group &group,
                                      const KernelTargetInfo &target,
                                      unsigned &numFusedOps) {
  std::string why;
  FailureOr<gpu::LaunchOp> launch =
      group.hasReduce() ? emitRowKernel(rewriter, group, target, why)
                        : emitElementwiseKernel(rewriter, group, target, why);
  if (failed(launch)) {
    // Fall back to one naive kernel per op.
    for (GroupOp &g : group.ops) {
      g.op.emitRemark() << "fused kernel not formed: " << why
                        << "; using a naive kernel";
      if (failed(formNaiveKernel(rewriter, g.op, target)))
        return g.op.emitOpError("cannot form a kernel");
    }
    return success();
  }
  if (group.ops.size() > 1)
    numFusedOps += group.ops.size();
  eraseFusedOps(rewriter, getOps(group), getPrivateBuffers(group));
  return success();
}

/// Forms the tiled kernel of `fusion`.
static void materializeTile(RewriterBase &rewriter, const TileFusion &fusion,
                            unsigned &numFusedOps) {
  Group all = fusion.prologueGroup;
  llvm::append_range(all.ops, fusion.epilogueGroup.ops);
  for (auto [root, value] : fusion.epilogueGroup.written)
    all.written[root] = value;
  DenseSet<Value> privates = getPrivateBuffers(all);
  emitTransposeKernel(rewriter, fusion, privates);
  if (all.ops.size() > 1)
    numFusedOps += all.ops.size();
  SmallVector<linalg::GenericOp> ops = fusion.prologue;
  ops.push_back(fusion.op);
  llvm::append_range(ops, fusion.epilogue);
  eraseFusedOps(rewriter, ops, privates);
}

FailureOr<unsigned> mlir::memopt::formFusedKernels(
    RewriterBase &rewriter, Block &block, const KernelTargetInfo &target,
    unsigned &numFusedOps) {
  // Partition first, rewrite after: groups are decided on the original IR.
  SmallVector<Group> groups;
  SmallVector<linalg::GenericOp> singles;
  SmallVector<std::variant<unsigned, linalg::GenericOp>> order;
  Group current;
  auto flush = [&]() {
    if (current.ops.empty())
      return;
    order.push_back((unsigned)groups.size());
    groups.push_back(std::move(current));
    current = Group();
  };
  // Tiled transposes with their fused elementwise ops; the last one still
  // takes epilogue ops while `openTile` is set.
  std::vector<TileFusion> tiles;
  DenseMap<Operation *, unsigned> tileOf;
  std::optional<unsigned> openTile;
  for (Operation &op : block) {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic) {
      // Allocations, views and constants do not touch memory contents;
      // anything else (copies, calls) ends the group.
      if (!isa<memref::AllocOp, memref::ExpandShapeOp,
               memref::CollapseShapeOp, memref::CastOp, arith::ConstantOp>(
              op)) {
        flush();
        openTile.reset();
      }
      continue;
    }
    if (openTile) {
      std::string why;
      if (tryAppendTileEpilogue(tiles[*openTile], generic, why)) {
        tiles[*openTile].epilogue.push_back(generic);
        continue;
      }
      generic.emitRemark() << "not fused with the preceding tiled transpose: "
                           << why;
      openTile.reset();
    }
    std::string why;
    FailureOr<GroupOp> g = classify(generic, why);
    if (failed(g)) {
      if (!current.ops.empty())
        generic.emitRemark() << "not fused with the preceding kernel group: "
                             << why;
      flush();
      order.push_back(generic);
      continue;
    }
    // A transposing op gets its own tiled kernel.
    bool transposing = false;
    unsigned n = generic.getNumLoops();
    if (g->role == RowRole::Vector)
      for (OpOperand *in : generic.getDpsInputOperands()) {
        if (!isa<MemRefType>(in->get().getType()))
          continue;
        AffineMap m = generic.getMatchingIndexingMap(in);
        // Contiguous along another loop than the innermost one. A constant
        // innermost index (an AoS field) is not a transpose.
        if (m.getNumResults() == 0)
          continue;
        auto last = dyn_cast<AffineDimExpr>(m.getResults().back());
        if (last && last.getPosition() != n - 1 && m.isFunctionOfDim(n - 1))
          transposing = true;
      }
    if (transposing) {
      std::string whyNot;
      FailureOr<TransposeMatch> match = matchTranspose(generic, whyNot);
      if (succeeded(match)) {
        TileFusion fusion;
        fusion.op = generic;
        fusion.match = *match;
        // The transpose starts the epilogue's group. One that updates a
        // buffer in place (O = O + T^T: each thread reads and writes its own
        // elements of O) still gets a tile, but fuses nothing.
        bool grouped = tryAppend(fusion.epilogueGroup, *g, whyNot);
        if (!current.ops.empty()) {
          if (grouped && canFuseTilePrologue(current, generic, *match, whyNot)) {
            fusion.prologue = getOps(current);
            fusion.prologueGroup = std::move(current);
            current = Group();
          } else {
            generic.emitRemark()
                << "not fused with the preceding kernel group: " << whyNot;
          }
        }
        flush();
        tileOf[generic] = tiles.size();
        if (grouped)
          openTile = tiles.size();
        tiles.push_back(std::move(fusion));
        order.push_back(generic);
        continue;
      }
      if (!current.ops.empty())
        generic.emitRemark() << "not fused with the preceding kernel group: "
                                "a transposed access gets its own kernel";
      flush();
      order.push_back(generic);
      continue;
    }
    std::string whyNot;
    if (tryAppend(current, *g, whyNot))
      continue;
    // A fusion that was possible in principle but refused says why.
    if (!current.ops.empty())
      generic.emitRemark() << "not fused with the preceding kernel group: "
                           << whyNot;
    flush();
    if (!tryAppend(current, *g, whyNot)) {
      order.push_back(generic);
      continue;
    }
  }
  flush();

  // Groups are materialized after the op that follows them, so that a
  // column reduction can absorb a fill of its output first; each kernel is
  // created at its op's position, so the order of the IR is unchanged.
  unsigned kernels = 0;
  auto materializePending = [&](unsigned idx) -> LogicalResult {
    if (groups[idx].ops.empty())
      return success();
    ++kernels;
    return materializeGroup(rewriter, groups[idx], target, numFusedOps);
  };
  // Forms the kernel of one standalone op; `pending` is the deferred group
  // just before it, if any.
  auto formOpKernel = [&](linalg::GenericOp op,
                          std::optional<unsigned> pending) -> LogicalResult {
    std::string why, whyCol;
    if (auto it = tileOf.find(op); it != tileOf.end()) {
      materializeTile(rewriter, tiles[it->second], numFusedOps);
      ++kernels;
      return success();
    }
    (void)matchTranspose(op, why);
    // A fill of the output just before (a one-op group) may be absorbed.
    Value fillValue;
    if (pending && groups[*pending].ops.size() == 1)
      if (Value v = getFillValue(groups[*pending].ops[0].op))
        if (getRootBuffer(groups[*pending].ops[0].op.getDpsInits()[0]) ==
            getRootBuffer(op.getDpsInits()[0]))
          fillValue = v;
    bool absorbed = false;
    if (succeeded(emitColumnReduceKernel(rewriter, op, target, fillValue,
                                         absorbed, whyCol))) {
      if (absorbed) {
        rewriter.eraseOp(groups[*pending].ops[0].op);
        groups[*pending].ops.clear();
      }
      ++kernels;
      return success();
    }
    op.emitRemark() << "no fused strategy applies (transpose: " << why
                    << "; column reduction: " << whyCol
                    << "); using a naive kernel";
    if (failed(formNaiveKernel(rewriter, op, target)))
      return op.emitOpError("cannot form a kernel");
    ++kernels;
    return success();
  };
  for (unsigned i = 0; i < order.size(); ++i) {
    if (auto *idx = std::get_if<unsigned>(&order[i])) {
      bool nextIsOp = i + 1 < order.size() &&
                      std::holds_alternative<linalg::GenericOp>(order[i + 1]);
      if (!nextIsOp && failed(materializePending(*idx)))
        return failure();
      continue;
    }
    std::optional<unsigned> pending;
    if (i > 0)
      if (auto *idx = std::get_if<unsigned>(&order[i - 1]))
        pending = *idx;
    if (failed(formOpKernel(std::get<linalg::GenericOp>(order[i]), pending)))
      return failure();
    if (pending && failed(materializePending(*pending)))
      return failure();
  }
  return kernels;
}
