//===- Grouping.h - kernel groups of kernel formation -------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to kernel formation: how linalg.generic ops on memrefs relate to
// a row space, the legality of putting them in one group, and the
// transposes, fills and reductions the strategy families recognize. Shared
// by memopt-form-groups (which partitions a block), memopt-select-kernel-
// strategy and memopt-emit-kernels (which rebuild a group from the ops of
// a memopt.kernel_group and check it again).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_GROUPING_H
#define MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_GROUPING_H

#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/MapVector.h"

#include <string>

namespace mlir::memopt::kf {

/// How one linalg.generic relates to a row space (outer dims x inner dim).
enum class RowRole {
  /// All loops parallel, loop space = outer dims (computed once per row).
  Scalar,
  /// All loops parallel, loop space = outer dims x inner dim.
  Vector,
  /// Outer loops parallel, innermost loop a reduction.
  Reduce,
  /// Every outer loop a reduction, the innermost loop parallel, over the
  /// group's row space: a sum over the rows (dgamma and dbeta of LayerNorm
  /// backward). Its output, indexed by the innermost loop alone, is
  /// finished after the group's kernel (column partials), so no op of the
  /// group reads it.
  ColumnReduce,
};

/// A generic op placed in a group.
struct GroupOp {
  /// Mutable so that const references can query the op.
  mutable linalg::GenericOp op;
  RowRole role;
  /// Reduce ops: the combiner kind.
  arith::AtomicRMWKind kind = arith::AtomicRMWKind::addf;
};

/// A kernel group of ops sharing one row space.
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
  /// Root buffers written by the column reductions -> the memref written.
  llvm::MapVector<Value, Value> columnWritten;
  /// Column reductions' outputs filled by a fill of the group (a constant,
  /// before the row ops) -> that constant: the kernel that finishes them
  /// combines into it rather than into the buffer, and the fill is not a
  /// kernel of its own.
  DenseMap<Value, Value> columnSeeds;
  /// Those fills, in order.
  SmallVector<linalg::GenericOp> columnSeedFills;
  bool hasReduce() const {
    return llvm::any_of(
        ops, [](const GroupOp &g) { return g.role == RowRole::Reduce; });
  }
  bool hasColumnReduce() const { return !columnWritten.empty(); }
  /// Product of the outer dims: the rows of the row space.
  int64_t numRows() const {
    int64_t rows = 1;
    for (int64_t d : outer)
      rows *= d;
    return rows;
  }
};

/// The combiner kind of an arith op usable as a reduction combiner.
std::optional<arith::AtomicRMWKind> getCombinerKind(Operation *op);

/// For a single-output reduction body `yield comb(out, f(ins))`, the kind of
/// `comb`; the output block argument must feed only the combiner.
FailureOr<arith::AtomicRMWKind> matchCombiner(linalg::GenericOp op,
                                              std::string &why);

/// Classifies `op` against a row space, or fails with a reason.
FailureOr<GroupOp> classify(linalg::GenericOp op, std::string &why);

/// Classifies `op` as a column reduction of a row space (every loop but the
/// innermost a reduction, one output indexed by the innermost loop, a
/// combiner matchCombiner knows), or fails with a reason.
FailureOr<GroupOp> classifyColumnReduce(linalg::GenericOp op,
                                        std::string &why);

/// Appends `cand` to `group` when that is legal (same row space, results
/// read only at the positions the producing thread holds, no in-place
/// update of a buffer the group reads); otherwise leaves the group
/// unchanged and says why.
bool tryAppend(Group &group, GroupOp cand, std::string &why);

/// The group of `ops` in order, or failure (with why the first op that does
/// not fit does not) when they do not form one. Fills of a constant into the
/// output of a later column reduction of `ops`, with no op of `ops` between
/// touching that buffer, are its column seeds.
FailureOr<Group> buildGroup(ArrayRef<linalg::GenericOp> ops, std::string &why);

/// Whether `fill` fills a constant into the output of column reduction
/// `column` (whole buffers both): the fill can seed the column partials.
bool isColumnSeedFill(linalg::GenericOp fill, linalg::GenericOp column);

/// Widest element of the memref operands of `group`'s ops, in bytes.
int64_t getWidestElementBytes(const Group &group);

/// Whether `root` is an allocation used only by the ops of `group`.
bool isGroupPrivate(Value root, const Group &group);

/// Whether `group` writes a row-shaped buffer that outlives it.
bool hasRowShapedResults(const Group &group);

/// The root buffers a group op reads (its inputs, and its outputs whose
/// values its body uses) and writes (its outputs).
struct OpRoots {
  DenseSet<Value> reads, writes;
};
OpRoots getOpRoots(const GroupOp &g);

/// The buffers written by `group` that nothing outside it uses.
DenseSet<Value> getPrivateBuffers(const Group &group);

/// The ops of `group` in order.
SmallVector<linalg::GenericOp> getOps(const Group &group);

/// Whether the elementwise ops or reductions of `group` compute a math
/// function (exp, log, tanh, erf, ...: special-function-unit work or a
/// polynomial each) of each element, as opposed to plain arithmetic and
/// functions of values the same along the row.
bool hasTranscendentals(const Group &group);

/// Whether `op` (classified as `g`) reads an input contiguous along another
/// loop than the innermost one (a transpose; an AoS field is not one).
bool isTransposing(linalg::GenericOp op, const GroupOp &g);

/// The transposed input of a tiled transpose: contiguous along loop `a`
/// instead of the innermost loop.
struct TransposeMatch {
  OpOperand *transposed = nullptr;
  unsigned a = 0;
};

/// An all-parallel op with identity output whose one transposed input is
/// contiguous along loop `a` instead of the innermost loop.
FailureOr<TransposeMatch> matchTranspose(linalg::GenericOp op,
                                         std::string &why);

/// A tiled transpose with elementwise work fused on either side: prologue
/// ops run over the transposed input's index space while the tile is
/// loaded (their result is the value staged), epilogue ops over the
/// transpose's output space while the tile is stored.
struct TileFusion {
  SmallVector<linalg::GenericOp> prologue;
  linalg::GenericOp op;
  TransposeMatch match;
  SmallVector<linalg::GenericOp> epilogue;
  /// Group state of `op` and the epilogue (for the legality checks of
  /// tryAppend) and of the prologue.
  Group epilogueGroup, prologueGroup;
};

/// Whether the ops of `group` can run as the prologue of the tiled
/// transpose `match` of `op`.
bool canFuseTilePrologue(const Group &group, linalg::GenericOp op,
                         const TransposeMatch &match, std::string &why);

/// Appends `cand` to the epilogue of `fusion` when it is an elementwise op
/// over the transpose's output space that reads fused results only at the
/// positions the thread holds and its other inputs coalesced.
bool tryAppendTileEpilogue(TileFusion &fusion, linalg::GenericOp cand,
                           std::string &why);

/// The tile fusion of `ops` whose op number `transpose` is the transpose;
/// failure with a reason when they do not form one.
FailureOr<TileFusion> buildTileFusion(ArrayRef<linalg::GenericOp> ops,
                                      unsigned transpose, std::string &why);

/// The ops of a memopt.kernel_group, in order.
SmallVector<linalg::GenericOp> getGroupOps(KernelGroupOp group);

/// Whether `fill` is a fill-like op (getFillValue) of the one output of
/// `op`: what a column reduction's whole-column form seeds its result with.
bool isFillOf(linalg::GenericOp fill, linalg::GenericOp op);

/// The value a fill-like op (no memref inputs, all parallel, identity
/// output, body yielding a value from outside or a scalar input) writes to
/// every element of its output, or null.
Value getFillValue(linalg::GenericOp op);

} // namespace mlir::memopt::kf

#endif // MEMOPT_LIB_TRANSFORMS_KERNELFORMATION_GROUPING_H
