//===- BlockOrder.cpp - the order in which blocks walk the rows -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Row and elementwise kernels start their rows in block order. An operand
// broadcast over an outer dim (an attention mask over the heads, a
// positional table over the batch) is read again at every step of that
// dim; walking the rows in memory order puts a whole sweep of the other
// dims between two reads of the same bytes, which for a mask of 16 MiB
// and scores of 2 x 256 MiB is far more than L2 holds. The `block_order`
// of #memopt.row and #memopt.elementwise walks the outer dims in another
// order; this file chooses it from the L2 reuse model of the traffic
// analysis (getRowGridDramBytes) and gives the emitters the row a block
// holds.
//
//===----------------------------------------------------------------------===//

#include "EmitUtils.h"
#include "KernelUtils.h"
#include "Strategies.h"

#include "memopt/Analysis/Traffic.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace mlir::memopt;
using namespace mlir::memopt::kf;

/// The DRAM-visible buffers of `group` as rows of its row space, and a
/// name for each (for remarks).
static SmallVector<RowGridOperand>
getRowGridOperands(const Group &group, SmallVectorImpl<Value> &roots) {
  SmallVector<RowGridOperand> operands;
  DenseMap<Value, unsigned> index;
  DenseSet<Value> privates = getPrivateBuffers(group);
  int64_t n = group.outer.size();
  for (const GroupOp &g : group.ops) {
    int64_t loops = g.op.getNumLoops();
    for (OpOperand &operand : g.op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      Value root = getRootBuffer(operand.get());
      bool read = !g.op.isDpsInit(&operand) &&
                  group.readExternal.contains(root);
      bool written = g.op.isDpsInit(&operand) && group.written.contains(root) &&
                     !privates.contains(root);
      if (!read && !written)
        continue;
      AffineMap map = g.op.getMatchingIndexingMap(&operand);
      auto mt = cast<MemRefType>(operand.get().getType());
      int64_t bytes = getElementBytes(mt.getElementType());
      if (g.role != RowRole::Scalar && group.inner > 0 &&
          map.isFunctionOfDim(loops - 1))
        bytes *= group.inner;
      auto [it, inserted] = index.try_emplace(root, operands.size());
      if (inserted) {
        RowGridOperand o;
        o.indexedBy.assign(n, false);
        operands.push_back(o);
        roots.push_back(root);
      }
      RowGridOperand &o = operands[it->second];
      o.bytesPerRow = std::max(o.bytesPerRow, bytes);
      for (int64_t d = 0; d < n && d < loops; ++d)
        if (map.isFunctionOfDim(d))
          o.indexedBy[d] = true;
    }
  }
  return operands;
}

DenseI64ArrayAttr kf::selectBlockOrder(const Group &group,
                                       const KernelTargetInfo &target) {
  int64_t n = group.outer.size();
  // (Beyond 6 outer dims the 720 orders are not searched: frontends'
  // normal forms collapse adjacent dims that index every operand alike.)
  if (n < 2 || n > 6 || group.hasColumnReduce())
    return {};
  SmallVector<Value> roots;
  SmallVector<RowGridOperand> operands = getRowGridOperands(group, roots);
  bool broadcast = llvm::any_of(operands, [&](const RowGridOperand &o) {
    for (int64_t d = 0; d < n; ++d)
      if (!o.indexedBy[d] && group.outer[d] > 1)
        return true;
    return false;
  });
  if (!broadcast)
    return {};
  int64_t reuse = target.l2Bytes / 2;
  SmallVector<int64_t> order(n), best;
  std::iota(order.begin(), order.end(), 0);
  int64_t identity = getRowGridDramBytes(group.outer, order, operands, reuse);
  int64_t bestBytes = identity;
  // Orders in lexicographic order, the identity first: among equal
  // figures the one closest to memory order wins.
  while (std::next_permutation(order.begin(), order.end())) {
    int64_t bytes = getRowGridDramBytes(group.outer, order, operands, reuse);
    if (bytes < bestBytes) {
      bestBytes = bytes;
      best = order;
    }
  }
  int64_t minimum = 0;
  for (const RowGridOperand &o : operands) {
    int64_t bytes = o.bytesPerRow;
    for (int64_t d = 0; d < n; ++d)
      if (o.indexedBy[d])
        bytes *= group.outer[d];
    minimum += bytes;
  }
  Operation *anchor = group.ops.front().op;
  auto mb = [](int64_t bytes) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (bytes >= 1024 * 1024)
      os << llvm::format("%.1f MiB", bytes / (1024.0 * 1024.0));
    else if (bytes >= 1024)
      os << llvm::format("%.1f KiB", bytes / 1024.0);
    else
      os << bytes << " bytes";
    return text;
  };
  // A reorder pays only when it saves a sixteenth of the bytes: blocks
  // that start rows far apart in memory cost DRAM page locality.
  if (best.empty() || identity - bestBytes < identity / 16) {
    if (identity > minimum)
      anchor->emitRemark()
          << "blocks in row order: broadcast operands are re-read from DRAM "
             "(modelled "
          << mb(identity) << " against a minimum of " << mb(minimum)
          << ") and no order of the outer dims saves a sixteenth";
    return {};
  }
  std::string dims;
  llvm::raw_string_ostream os(dims);
  llvm::interleaveComma(best, os);
  InFlightDiagnostic d = anchor->emitRemark();
  d << "blocks walk the outer dims in order [" << dims
    << "]: in row order broadcast operands are re-read from DRAM (modelled "
    << mb(identity) << ", " << mb(bestBytes) << " in this order, minimum "
    << mb(minimum) << ", L2 reuse within " << mb(reuse) << ")";
  return DenseI64ArrayAttr::get(anchor->getContext(), best);
}

LogicalResult kf::checkBlockOrder(const Group &group, Attribute s,
                                  DenseI64ArrayAttr order, Operation *anchor) {
  if (!order)
    return success();
  int64_t n = group.outer.size();
  SmallVector<int64_t> sorted(order.asArrayRef());
  llvm::sort(sorted);
  bool permutation = (int64_t)sorted.size() == n;
  for (int64_t i = 0; permutation && i < n; ++i)
    permutation = sorted[i] == i;
  if (!permutation)
    return emitCannotHonour(anchor, s)
               << "block_order is not a permutation of the group's "
               << n << " outer dims",
           failure();
  return success();
}

Value kf::getOrderedRow(OpBuilder &b, Location loc, Value row,
                        ArrayRef<int64_t> outer, DenseI64ArrayAttr order) {
  if (!order)
    return row;
  ArrayRef<int64_t> perm = order.asArrayRef();
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == (int64_t)i;
  if (identity)
    return row;
  // The block's position along the dims in `order`, then the row at those
  // indices in memory order.
  SmallVector<int64_t> sizes;
  for (int64_t d : perm)
    sizes.push_back(outer[d]);
  SmallVector<Value> ids = delinearize(b, loc, row, sizes);
  SmallVector<Value> byDim(outer.size());
  for (auto [k, d] : llvm::enumerate(perm))
    byDim[d] = ids[k];
  Value linear = byDim[0];
  for (size_t d = 1; d < outer.size(); ++d)
    linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, linear, cIdx(b, loc, outer[d])),
        byDim[d]);
  return linear;
}
