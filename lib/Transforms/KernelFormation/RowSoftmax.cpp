//===- RowSoftmax.cpp - online softmax in row kernels -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Softmax's maximum and sum exchanged once (online softmax) in the row
// family's kernels split over clusters: the matcher and the emitter.
//
//===----------------------------------------------------------------------===//
#include "RowFamily.h"
#include "Strategies.h"
#include "../TensorUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// Whether `a` in `opA`'s body and `b` in `opB`'s are the same function of
/// the row's inputs: args of inputs read from the same buffer through the
/// same map.
static bool isSameRowValue(Value a, linalg::GenericOp opA, Value b,
                           linalg::GenericOp opB) {
  return isSameBodyValue(a, opA, b, opB, [&](OpOperand &x, OpOperand &y) {
    return getRootBuffer(x.get()) == getRootBuffer(y.get()) &&
           opA.getMatchingIndexingMap(&x) == opB.getMatchingIndexingMap(&y);
  });
}

/// Whether `e` (in `op`'s body) is `exp(v - m)`, `m` the arg of `op`'s
/// operand `maxOperand` used only there and `v` the same values `values`
/// computes in `max`'s body.
static bool isExpOfDifference(Value e, linalg::GenericOp op,
                              OpOperand &maxOperand, Value values,
                              linalg::GenericOp max) {
  BlockArgument m = op.getMatchingBlockArgument(&maxOperand);
  if (!m.hasOneUse() || !e.hasOneUse())
    return false;
  auto exp = e.getDefiningOp<math::ExpOp>();
  if (!exp)
    return false;
  auto sub = exp.getOperand().getDefiningOp<arith::SubFOp>();
  if (!sub || sub.getRhs() != m || !sub->hasOneUse())
    return false;
  return isSameRowValue(sub.getLhs(), op, values, max);
}

/// Matches the online softmax form at reduction `i` of `group`.
std::optional<OnlineSoftmax> kf::matchOnlineSoftmax(const Group &group,
                                                    size_t i) {
  const GroupOp &max = group.ops[i];
  if (max.kind != arith::AtomicRMWKind::maxnumf &&
      max.kind != arith::AtomicRMWKind::maximumf)
    return std::nullopt;
  auto isF32Acc = [](const GroupOp &g) {
    return g.op.getBody()
        ->getArgument(g.op.getNumDpsInputs())
        .getType()
        .isF32();
  };
  Value values = getMaximumValues(max.op);
  if (!isF32Acc(max) || !values)
    return std::nullopt;
  Value maxRoot = getRootBuffer(max.op.getDpsInitsMutable()[0].get());
  auto reads = [](const GroupOp &g, Value root) {
    return getOpRoots(g).reads.contains(root);
  };
  auto writes = [](const GroupOp &g, Value root) {
    return getOpRoots(g).writes.contains(root);
  };
  // The one input of `g` reading the maximum, each other operand's arg
  // unused by `g` when it reads the maximum's buffer too (null otherwise).
  auto maxOperand = [&](const GroupOp &g) -> OpOperand * {
    OpOperand *found = nullptr;
    for (OpOperand &o : g.op->getOpOperands()) {
      if (getRootBuffer(o.get()) != maxRoot)
        continue;
      if (!g.op.isDpsInput(&o) || found)
        return nullptr;
      found = &o;
    }
    return found;
  };
  // The exp value `exp(v - max)` yielded by `g` (its only yield), or null.
  auto yieldedExp = [&](const GroupOp &g, OpOperand *m) -> Value {
    if (!m || g.op.getNumDpsInits() != 1)
      return Value();
    Value e = g.op.getBody()->getTerminator()->getOperand(0);
    return isExpOfDifference(e, g.op, *m, values, max.op) ? e : Value();
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
      if (g.kind != arith::AtomicRMWKind::addf || !isF32Acc(g))
        return std::nullopt;
      // The sum of the exp values, from zero or any initial value.
      if (exp) {
        if (!isPlainReduction<arith::AddFOp>(g.op) ||
            getRootBuffer(g.op.getDpsInputOperand(0)->get()) != expRoot ||
            readsMax)
          return std::nullopt;
        return OnlineSoftmax{exp, k};
      }
      // Or `yield exp(v - max) + acc`, the exp in the sum's body.
      if (!readsMax || writes(g, maxRoot))
        return std::nullopt;
      Block *body = g.op.getBody();
      BlockArgument acc = body->getArgument(g.op.getNumDpsInputs());
      auto add = body->getTerminator()->getOperand(0).getDefiningOp<
          arith::AddFOp>();
      if (!add || !acc.hasOneUse() || !add->hasOneUse() ||
          (add.getLhs() != acc && add.getRhs() != acc))
        return std::nullopt;
      Value e = add.getLhs() == acc ? add.getRhs() : add.getLhs();
      OpOperand *m = maxOperand(g);
      if (!m || !isExpOfDifference(e, g.op, *m, values, max.op))
        return std::nullopt;
      return OnlineSoftmax{std::nullopt, k};
    }
    if (!readsMax) {
      // Other work in between must not see or replace a local exp value.
      if (exp && (reads(g, expRoot) || writes(g, expRoot)))
        return std::nullopt;
      if (writes(g, maxRoot))
        maxLive = false;
      continue;
    }
    if (exp || g.role != RowRole::Vector || writes(g, maxRoot) ||
        !yieldedExp(g, maxOperand(g)))
      return std::nullopt;
    exp = k;
    expRoot = getRootBuffer(g.op.getDpsInitsMutable()[0].get());
  }
  return std::nullopt;
}

arith::FastMathFlags kf::getOnlineExpFlags(const Group &group,
                                           const OnlineSoftmax &online) {
  const GroupOp &g = group.ops[online.exp ? *online.exp : online.sum];
  for (Operation &op : g.op.getBody()->without_terminator())
    if (auto exp = dyn_cast<math::ExpOp>(op))
      return exp.getFastmath();
  return arith::FastMathFlags::none;
}

OnlineRescale::OnlineRescale(OpBuilder &b, Location loc,
                             arith::FastMathFlags expFlags)
    : b(b), loc(loc), expFlags(expFlags) {
  ninf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
}

Value OnlineRescale::isNegInf(Value m) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, ninf);
}

Value OnlineRescale::scaleTo(Value m, Value to) {
  Value e = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, m, to),
                                expFlags);
  return arith::SelectOp::create(b, loc, isNegInf(m), zero, e);
}

Value OnlineRescale::usable(Value m) {
  return arith::SelectOp::create(b, loc, isNegInf(m), zero, m);
}

/// Emits online softmax `online` whose maximum is reduction `i` of `group`
/// (already emitted up to its thread partial `partial`) through the sum,
/// exchanging the block's maximum and sum in slots `slot` and `slot + 1`.
/// A slice partly in shared memory passes `sharedPass` (one pass over its
/// chunks there, returning the thread partial of a reduction) and the
/// elementwise ops those passes replay (`vectorOps`): the exp values there
/// are recomputed by later passes, from the row's maximum.
void kf::emitOnlineSoftmax(
    OpBuilder &b, EmitState &st, const Group &group, size_t i,
    const OnlineSoftmax &online, Value partial, unsigned numChunks,
    unsigned threads, const KernelTargetInfo &target, Value tid, Value smem,
    const RowCluster &cluster, unsigned slot, VectorOpList *vectorOps,
    function_ref<Value(const GroupOp *)> sharedPass) {
  Location loc = st.loc;
  const GroupOp &g = group.ops[i];
  int64_t clusterSize = cluster.size;
  // The block's maximum (with the output's initial value), the exp values
  // and their sum from it, then one exchange for both.
  Value maxRoot = getRootBuffer(g.op.getDpsInitsMutable()[0].get());
  finishReduction(b, st, g, partial, threads, target, tid, smem, slot);
  Value localMax = st.scalarValues.lookup(maxRoot);
  // A slice that is -inf throughout has maximum -inf: its exp values are
  // taken from 0 instead (they are 0, and so is its sum).
  OnlineRescale rescale(b, loc, getOnlineExpFlags(group, online));
  Value localUsed = rescale.usable(localMax);
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
    sumPartial =
        arith::getReductionOp(sum.kind, b, loc, sumPartial, sharedPass(&sum));
  Value localSum = blockReduce(b, loc, sumPartial, sum.kind, threads,
                               target.warpSize, tid, smem, slot + 1);
  SmallVector<SmallVector<Value>> all = exchangeTotals(
      b, loc, tid, cluster, {{slot, localMax}, {slot + 1, localSum}});
  ArrayRef<Value> maxes = all[0], sums = all[1];
  Value rowMax = reduceInOrder(b, loc, g.kind, maxes);
  // exp(m - M), 0 for a block whose maximum is -inf (its values are 0).
  Value rowSum;
  for (int64_t r = 0; r < clusterSize; ++r) {
    Value part = arith::MulFOp::create(b, loc, sums[r],
                                       rescale.scaleTo(maxes[r], rowMax));
    rowSum =
        rowSum ? arith::AddFOp::create(b, loc, rowSum, part).getResult() : part;
  }
  // The exp values as if computed from the row's maximum.
  Value scale = rescale.scaleTo(localMax, rowMax);
  if (online.exp) {
    Value expRoot = getRootBuffer(
        group.ops[*online.exp].op.getDpsInitsMutable()[0].get());
    for (Value &lane : st.vecValues[expRoot])
      lane = arith::MulFOp::create(b, loc, lane, scale);
  }
  // Later passes over the chunks in shared memory take the exp values from
  // the row's maximum directly (exp(v - M) = exp(v - m) * exp(m - M)), 0 in
  // place of an M of -inf as for the register lanes (whose scale is then
  // 0). Only the ops that read the block's maximum change: another op in
  // between may read the buffer after a fill replaced the maximum.
  if (vectorOps) {
    Value rowUsed = rescale.usable(rowMax);
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
