//===- Grouping.cpp - kernel groups of kernel formation -----*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements the legality of kernel groups: how an op relates to
// a row space, whether it may join a group, and the transposes and fills
// the strategy families recognize.
//
//===----------------------------------------------------------------------===//

#include "Grouping.h"
#include "KernelUtils.h"

#include "memopt/Analysis/AccessPattern.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

std::optional<arith::AtomicRMWKind> kf::getCombinerKind(Operation *op) {
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
FailureOr<arith::AtomicRMWKind> kf::matchCombiner(linalg::GenericOp op,
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
  // 16-bit float partials are combined across threads in f32; 64-bit ones
  // (f64 sums, i64 counts) are shuffled as two 32-bit halves.
  if (!t.isF32() && !t.isInteger(32) && !t.isF16() && !t.isBF16() &&
      !t.isF64() && !t.isInteger(64)) {
    why = "reduction accumulator is not f64, f32, f16, bf16, i64 or i32";
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
FailureOr<GroupOp> kf::classify(linalg::GenericOp op, std::string &why) {
  if (!op.hasPureBufferSemantics()) {
    why = "not on buffers";
    return failure();
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic)) {
    why = "dynamic iteration space";
    return failure();
  }
  // A rank-0 op (the fill of a full reduction's 0-d result, a scalar
  // through a 0-d tensor): the scalar part of the group over no rows.
  if (ranges.empty())
    return GroupOp{op, RowRole::Scalar};
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

FailureOr<GroupOp> kf::classifyColumnReduce(linalg::GenericOp op,
                                            std::string &why) {
  if (!op.hasPureBufferSemantics() ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic)) {
    why = "not on static buffers";
    return failure();
  }
  auto iters = op.getIteratorTypesArray();
  unsigned n = iters.size();
  if (n < 2 || iters[n - 1] != utils::IteratorType::parallel ||
      llvm::any_of(ArrayRef(iters).drop_back(), [](utils::IteratorType t) {
        return t != utils::IteratorType::reduction;
      })) {
    why = "not a reduction over every loop but the innermost";
    return failure();
  }
  if (op.getNumDpsInits() != 1) {
    why = "a column reduction with several outputs";
    return failure();
  }
  // The output is indexed by the innermost loop (unit dims of a keepdim
  // result at constant 0).
  AffineMap out = op.getMatchingIndexingMap(&op.getDpsInitsMutable()[0]);
  bool found = false;
  for (AffineExpr e : out.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e); d && d.getPosition() == n - 1 &&
                                             !found) {
      found = true;
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0) {
      why = "its output is not indexed by the innermost loop alone";
      return failure();
    }
  }
  if (!found || !isa<AffineDimExpr>(out.getResults().back())) {
    why = "its output is not indexed by the innermost loop alone";
    return failure();
  }
  // Inputs along the row read contiguously (a transposed read would take
  // the row group's vectors away).
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(in->get().getType()))
      continue;
    AffineMap m = op.getMatchingIndexingMap(in);
    if (!m.isFunctionOfDim(n - 1))
      continue;
    auto lastIn = dyn_cast<AffineDimExpr>(m.getResults().back());
    if (!lastIn || lastIn.getPosition() != n - 1) {
      why = "it reads an input along the row other than contiguously";
      return failure();
    }
  }
  FailureOr<arith::AtomicRMWKind> kind = matchCombiner(op, why);
  if (failed(kind))
    return failure();
  return GroupOp{op, RowRole::ColumnReduce, *kind};
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
    bool asScalar =
        cand.role == RowRole::Vector && full == group.outer && group.inner >= 0;
    bool groupWasScalar = group.inner < 0 && outer == group.outer;
    // A rank-0 op after a row reduction over no outer dims (one row, its
    // unit dim folded away: the fill of the next full reduction's 0-d
    // result, a scalar of log-sum-exp) is a row scalar of that row. (Not
    // after elementwise ops alone: those keep their flat layout and the
    // fill its own reduction.)
    bool scalarOfRow = cand.role == RowRole::Scalar && inner < 0 &&
                       outer.empty() && group.outer.empty() &&
                       group.inner >= 0 && group.hasReduce();
    // A pointwise group over exactly this op's outer space (e.g. the fill
    // of a reduction's init) becomes the scalar part of a row group.
    SmallVector<int64_t> groupFull = group.outer;
    if (group.inner >= 0)
      groupFull.push_back(group.inner);
    // Only when every op of the group iterates over exactly that space.
    bool groupBecomesScalar = inner >= 0 && groupFull == outer &&
                              !group.hasReduce() &&
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
    } else if (scalarOfRow) {
      // (Already a scalar over the group's outer space.)
    } else if (groupWasScalar && inner >= 0) {
      // The group so far only holds scalar ops over `outer`; it becomes a
      // row group now.
      group.inner = inner;
    } else if (!sameRow) {
      why = "its iteration space differs from the group's row space";
      return false;
    }
  }
  // (Elementwise ops alone over the rows do too: the column sum of a
  // result they also write, dbias beside an activation's gradient.)
  if (cand.role == RowRole::ColumnReduce &&
      (group.inner < 0 || outer != group.outer || inner != group.inner)) {
    why = "a column reduction joins only a row group over the same row "
          "space";
    return false;
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
    if (group.columnWritten.contains(root)) {
      why = "it uses the result of a column reduction, which is finished "
            "after the group's kernel";
      return false;
    }
    if (isInit && cand.role == RowRole::ColumnReduce) {
      // Finished by the second kernel: the group itself neither reads nor
      // writes it.
      if (group.written.contains(root) || group.readExternal.contains(root)) {
        why = "its output is a buffer the group reads or writes";
        return false;
      }
      continue;
    }
    auto it = group.written.find(root);
    bool usesOut = !isInit ||
                   !cand.op.getMatchingBlockArgument(&operand).use_empty() ||
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
    if (cand.role == RowRole::ColumnReduce) {
      for (OpOperand *in : cand.op.getDpsInputOperands())
        if (getRootBuffer(in->get()) == root) {
          why = "it updates a buffer in place";
          return false;
        }
      group.columnWritten[root] = out.get();
      continue;
    }
    group.written[root] = out.get();
    group.writtenIsVector[root] = cand.role == RowRole::Vector;
  }
  group.ops.push_back(cand);
  return true;
}

/// Transactional wrapper: the group is unchanged when the op does not fit.
bool kf::tryAppend(Group &group, GroupOp cand, std::string &why) {
  Group attempt = group;
  if (!tryAppendImpl(attempt, cand, why))
    return false;
  group = std::move(attempt);
  return true;
}

/// Whether `root` is an allocation used only by the ops of `group`.
bool kf::isGroupPrivate(Value root, const Group &group) {
  if (!root.getDefiningOp<memref::AllocOp>())
    return false;
  DenseSet<Operation *> members;
  for (const GroupOp &g : group.ops)
    members.insert(g.op);
  return llvm::all_of(root.getUsers(), [&](Operation *user) {
    return members.contains(user) || isa<memref::DeallocOp>(user);
  });
}

bool kf::hasRowShapedResults(const Group &group) {
  return llvm::any_of(group.written, [&](auto &entry) {
    return group.writtenIsVector.lookup(entry.first) &&
           !isGroupPrivate(entry.first, group);
  });
}

kf::OpRoots kf::getOpRoots(const GroupOp &g) {
  OpRoots roots;
  for (OpOperand &o : g.op->getOpOperands()) {
    if (!isa<MemRefType>(o.get().getType()))
      continue;
    Value root = getRootBuffer(o.get());
    if (g.op.isDpsInput(&o) || !g.op.getMatchingBlockArgument(&o).use_empty())
      roots.reads.insert(root);
    if (g.op.isDpsInit(&o))
      roots.writes.insert(root);
  }
  return roots;
}

/// The buffers written by `group` that nothing outside it uses.
DenseSet<Value> kf::getPrivateBuffers(const Group &group) {
  DenseSet<Value> privates;
  for (auto [root, value] : group.written)
    if (isGroupPrivate(root, group))
      privates.insert(root);
  return privates;
}

SmallVector<linalg::GenericOp> kf::getOps(const Group &group) {
  return llvm::map_to_vector(group.ops, [](const GroupOp &g) { return g.op; });
}

/// Whether the elementwise ops or reductions of `group` compute a math
/// function (exp, log, tanh, erf, ...: special-function-unit work or a
/// polynomial each) of each element, as opposed to plain arithmetic, the
/// math ops that are arithmetic or bit tests too, and functions of values
/// the same along the row (RMSNorm's rsqrt of the row's mean square). Ops
/// in nested regions count whatever they read.
bool kf::hasTranscendentals(const Group &group) {
  auto isMathFunction = [](Operation *op) {
    return isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
           !isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::FmaOp,
                math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
                math::TruncOp, math::IsNaNOp, math::IsInfOp, math::IsFiniteOp,
                math::IsNormalOp, math::CountLeadingZerosOp,
                math::CountTrailingZerosOp, math::CtPopOp, math::IPowIOp,
                math::FPowIOp>(op);
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
        region.walk(
            [&](Operation *inner) { nestedMath |= isMathFunction(inner); });
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

/// An all-parallel op with identity output whose one transposed input is
/// contiguous along loop `a` instead of the innermost loop.
FailureOr<TransposeMatch> kf::matchTranspose(linalg::GenericOp op,
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

/// Whether the ops of `group` can run as the prologue of the tiled
/// transpose `match` of `op`: elementwise ops over exactly the transposed
/// input's index space whose last result is that input, read by `op` and by
/// nothing else of it.
bool kf::canFuseTilePrologue(const Group &group, linalg::GenericOp op,
                             const TransposeMatch &match, std::string &why) {
  Value in = match.transposed->get();
  auto inType = cast<MemRefType>(in.getType());
  SmallVector<int64_t> full = group.outer;
  if (group.inner >= 0)
    full.push_back(group.inner);
  if (group.hasReduce() || llvm::any_of(group.ops, [&](const GroupOp &g) {
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
bool kf::tryAppendTileEpilogue(TileFusion &fusion, linalg::GenericOp cand,
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
    std::optional<SectorUse> use =
        predictSectorUse(cand.getMatchingIndexingMap(&operand),
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

/// The value a fill-like op (no memref inputs, all parallel, identity
/// output, body yielding a value from outside or a scalar input) writes to
/// every element of its output, or null.
Value kf::getFillValue(linalg::GenericOp op) {
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

int64_t kf::getWidestElementBytes(const Group &group) {
  // Every buffer counts, per-row values too: bf16 rows with f32 statistics
  // keep 8-byte accesses of 4 elements. (Following only the elements
  // accessed along the row, 16-byte accesses of 8, measured slower on an
  // H200: LayerNorm backward dx 77.8% of copy against 102.6%, add +
  // LayerNorm over rows of 16384 bf16 28.5% against 74.8%, RMSNorm over
  // rows of 4096 67.4% against 89.3%; bench/results/2026-12-01-run18-*.)
  // A per-row value wider than 4 bytes (an i64 index per row: argmax)
  // counts as 4: it is one access a row, and halving the row's accesses
  // for it was not measured to pay.
  int64_t maxBytes = 1;
  for (const GroupOp &g : group.ops)
    for (OpOperand &operand : g.op->getOpOperands())
      if (auto mt = dyn_cast<MemRefType>(operand.get().getType())) {
        int64_t bytes = getElementBytes(mt.getElementType());
        bool perRow = g.role == RowRole::Scalar ||
                      (g.role == RowRole::Reduce && g.op.isDpsInit(&operand));
        maxBytes = std::max(maxBytes, perRow ? std::min<int64_t>(bytes, 4)
                                             : bytes);
      }
  return maxBytes;
}
bool kf::isColumnSeedFill(linalg::GenericOp fill, linalg::GenericOp column) {
  Value v = getFillValue(fill);
  std::string why;
  if (!v || !v.getDefiningOp<arith::ConstantOp>() || !isFillOf(fill, column) ||
      fill.getDpsInits()[0] != column.getDpsInits()[0] ||
      failed(classifyColumnReduce(column, why)))
    return false;
  // The reduction writes every element the fill does: its output's other
  // dims (read at constant indices) are unit dims. (Elsewhere the fill's
  // values stay, and only a kernel of its own writes them.)
  auto mt = dyn_cast<MemRefType>(fill.getDpsInits()[0].getType());
  SmallVector<int64_t> ranges = column.getStaticLoopRanges();
  return mt && mt.hasStaticShape() && !ranges.empty() &&
         mt.getNumElements() == ranges.back();
}

FailureOr<Group> kf::buildGroup(ArrayRef<linalg::GenericOp> ops,
                                std::string &why) {
  Group group;
  // Column seeds: a fill of the output of a later column reduction, which
  // no op between touches.
  DenseSet<Operation *> seeds;
  for (unsigned i = 0; i < ops.size(); ++i) {
    linalg::GenericOp fill = ops[i];
    if (!getFillValue(fill))
      continue;
    Value root = getRootBuffer(fill.getDpsInits()[0]);
    for (linalg::GenericOp op : ops.drop_front(i + 1)) {
      if (isColumnSeedFill(fill, op)) {
        seeds.insert(fill);
        group.columnSeeds[root] = getFillValue(fill);
        group.columnSeedFills.push_back(fill);
        break;
      }
      if (llvm::any_of(op->getOperands(), [&](Value v) {
            return isa<MemRefType>(v.getType()) && getRootBuffer(v) == root;
          }))
        break;
    }
  }
  for (linalg::GenericOp op : ops) {
    if (seeds.contains(op))
      continue;
    FailureOr<GroupOp> g = classify(op, why);
    // Column reductions end a row group (the ops after the first one are
    // column reductions too: tryAppend refuses anything reading them).
    if (failed(g) && !group.ops.empty()) {
      std::string whyColumn;
      g = classifyColumnReduce(op, whyColumn);
    }
    if (failed(g) || !tryAppend(group, *g, why))
      return failure();
  }
  return group;
}

SmallVector<linalg::GenericOp> kf::getGroupOps(KernelGroupOp group) {
  return llvm::to_vector(group.getBody().front().getOps<linalg::GenericOp>());
}

bool kf::isFillOf(linalg::GenericOp fill, linalg::GenericOp op) {
  return getFillValue(fill) && op.getNumDpsInits() == 1 &&
         getRootBuffer(fill.getDpsInits()[0]) ==
             getRootBuffer(op.getDpsInits()[0]);
}

bool kf::isTransposing(linalg::GenericOp op, const GroupOp &g) {
  if (g.role != RowRole::Vector)
    return false;
  unsigned n = op.getNumLoops();
  for (OpOperand *in : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(in->get().getType()))
      continue;
    AffineMap m = op.getMatchingIndexingMap(in);
    // Contiguous along another loop than the innermost one. A constant
    // innermost index (an AoS field) is not a transpose.
    if (m.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(m.getResults().back());
    if (last && last.getPosition() != n - 1 && m.isFunctionOfDim(n - 1))
      return true;
  }
  return false;
}

FailureOr<TileFusion> kf::buildTileFusion(ArrayRef<linalg::GenericOp> ops,
                                          unsigned transpose,
                                          std::string &why) {
  if (transpose >= ops.size()) {
    why = "the transpose index is past the group's ops";
    return failure();
  }
  TileFusion fusion;
  fusion.op = ops[transpose];
  FailureOr<TransposeMatch> match = matchTranspose(fusion.op, why);
  if (failed(match))
    return failure();
  fusion.match = *match;
  FailureOr<GroupOp> g = classify(fusion.op, why);
  if (failed(g))
    return failure();
  bool grouped = tryAppend(fusion.epilogueGroup, *g, why);
  if (!grouped && ops.size() > 1) {
    why = "a transpose that fuses nothing (" + why + ") has other ops";
    return failure();
  }
  if (transpose > 0) {
    FailureOr<Group> prologue = buildGroup(ops.take_front(transpose), why);
    if (failed(prologue) ||
        !canFuseTilePrologue(*prologue, fusion.op, fusion.match, why))
      return failure();
    fusion.prologue = getOps(*prologue);
    fusion.prologueGroup = std::move(*prologue);
  }
  for (linalg::GenericOp op : ops.drop_front(transpose + 1)) {
    if (!tryAppendTileEpilogue(fusion, op, why))
      return failure();
    fusion.epilogue.push_back(op);
  }
  return fusion;
}
