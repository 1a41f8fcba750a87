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
/// maximum M of the row, then the sum of exp(v - M) computed by one
/// elementwise op. Each block reduces its slice with its own maximum m_b;
/// the blocks then exchange (m_b, s_b) once and combine M = max m_b and
/// S = sum s_b * exp(m_b - M), and scale their exp values by exp(m_b - M).
struct OnlineSoftmax {
  /// Indices in the group of the exp op and of the sum.
  size_t exp, sum;
};

/// Matches the online softmax form at reduction `i` of `group`.
std::optional<OnlineSoftmax> matchOnlineSoftmax(const Group &group, size_t i);

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

} // namespace mlir::memopt::kf

#endif // MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_ROWFAMILY_H
