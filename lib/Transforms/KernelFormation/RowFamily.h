//===- RowFamily.h - the row family's shared pieces -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Pieces of the row family (#memopt.row) shared by its selection
// (RowStrategy.cpp) and its emitter (RowEmit.cpp): the online softmax form.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_ROWFAMILY_H
#define MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_ROWFAMILY_H

#include "EmitUtils.h"

#include <optional>

namespace mlir::memopt::kf {

/// Softmax's two reductions in one cluster exchange (online softmax): a
/// maximum M of the row's values v, then the sum of exp(v - M), the exp
/// computed by an elementwise op or inside the sum's own body (log-sum-exp
/// as torch-mlir writes it: exp(extf(x) - M) + acc). The values are an
/// expression of the row's inputs that both ops compute alike. Each block
/// reduces its slice with its own maximum m_b; the blocks then exchange
/// (m_b, s_b) once and combine M = max m_b and S = sum s_b * exp(m_b - M),
/// and scale their exp values (if any) by exp(m_b - M).
struct OnlineSoftmax {
  /// Index in the group of the elementwise exp op (none: the exp is in the
  /// sum's body).
  std::optional<size_t> exp;
  /// Index in the group of the sum.
  size_t sum;
};

/// Matches the online softmax form at reduction `i` of `group`.
std::optional<OnlineSoftmax> matchOnlineSoftmax(const Group &group, size_t i);

/// The fast-math flags of the exp whose values online softmax `online`
/// sums (memopt-approximate-math's decision); the rescaling exps take them
/// too: they scale partial sums that each hold a term of exactly 1.
arith::FastMathFlags getOnlineExpFlags(const Group &group,
                                       const OnlineSoftmax &online);

/// The rescaling of online softmax's partial sums and its -inf guards:
/// exp(m - to) is 0 where m is -inf (a partial sum of nothing but 0s), and
/// a maximum of -inf is taken as 0 where exp values are computed from it
/// (they are 0, where exp(-inf - -inf) would be NaN). Creates its
/// constants at the builder's insertion point.
struct OnlineRescale {
  OnlineRescale(OpBuilder &b, Location loc, arith::FastMathFlags expFlags);
  Value isNegInf(Value m);
  /// exp(m - to), 0 for an m of -inf.
  Value scaleTo(Value m, Value to);
  /// m, 0 for an m of -inf.
  Value usable(Value m);

  OpBuilder &b;
  Location loc;
  arith::FastMathFlags expFlags;
  Value ninf, zero;
};

/// Emits online softmax `online` whose maximum is reduction `i` of `group`
/// (already emitted up to its thread partial `partial`) through the sum,
/// exchanging the block's maximum and sum in slots `slot` and `slot + 1`.
/// A slice partly in shared memory passes `sharedPass` (one pass over its
/// chunks there, returning the thread partial of a reduction) and the
/// elementwise ops those passes replay (`vectorOps`): the exp values there
/// are recomputed by later passes, from the row's maximum.
void emitOnlineSoftmax(OpBuilder &b, EmitState &st, const Group &group,
                       size_t i, const OnlineSoftmax &online, Value partial,
                       unsigned numChunks, unsigned threads,
                       const KernelTargetInfo &target, Value tid, Value smem,
                       const RowCluster &cluster, unsigned slot,
                       VectorOpList *vectorOps = nullptr,
                       function_ref<Value(const GroupOp *)> sharedPass = nullptr);

/// How a streamed row kernel (#memopt.streamed_row) walks its row: the
/// group's reductions in passes, each pass one walk over the row. A
/// reduction joins the pending pass unless it reads what the pass's
/// reductions write; an op that reads their results (or writes what they
/// read or write) ends the pass before it. With `online`, a maximum and the
/// sum of exp(v - max) after it (matchOnlineSoftmax, only elementwise ops
/// between) share a pass.
struct StreamedPasses {
  /// Whether the pending pass is emitted before op k.
  SmallVector<bool> flushBefore;
  /// Online pairs, by the index of their maximum.
  DenseMap<size_t, OnlineSoftmax> pairs;
  /// Walks over the row for the reductions (the row-shaped results take
  /// one more).
  unsigned reductionPasses = 0;
};
StreamedPasses planStreamedPasses(const Group &group, bool online);

} // namespace mlir::memopt::kf

#endif // MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_ROWFAMILY_H
