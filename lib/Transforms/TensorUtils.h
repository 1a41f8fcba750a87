//===- TensorUtils.h - tensor-level helpers of memopt passes ---*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_LIB_TRANSFORMS_TENSORUTILS_H
#define MEMOPT_LIB_TRANSFORMS_TENSORUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <optional>

namespace mlir::memopt {

/// A linalg.generic over every element of static tensor `input` into a new
/// tensor (tensor.empty) of `elementType`, whose body yields
/// `body(element)`: the form the input stage leaves every op in.
Value createElementwiseGeneric(
    OpBuilder &b, Location loc, Value input, Type elementType,
    function_ref<Value(OpBuilder &, Location, Value)> body);

/// Adds to `ops` (in body order) and `args` the ops of `body` and its block
/// arguments that `v` depends on.
void collectBodySlice(Value v, Block *body, llvm::SetVector<Operation *> &ops,
                      llvm::SetVector<BlockArgument> &args);

/// The constant a tensor is filled with (a linalg.fill, or a fill-like
/// generic: kf::getFillValue), or null.
Attribute getFillConstant(Value t);

/// Moves `op` down to just before its first user in its block (users in
/// other blocks: left where it is), keeping it before all its users.
void sinkToFirstUser(Operation *op);

/// Replaces `g` by a generic that computes its input `use` (the result of
/// the single-result elementwise generic `p`, read through a projected
/// permutation over all of `p`'s loops) from `p`'s inputs by `p`'s body,
/// then runs `g`'s body: `p`'s input maps composed with `use`'s map. The
/// same ops in the same types, so the same values. Returns the new generic.
linalg::GenericOp inlineProducer(RewriterBase &rewriter, linalg::GenericOp g,
                                 OpOperand &use, linalg::GenericOp p);

/// `1 + tanh(x)` or `1 - tanh(x)` as the only use of the f32 tanh result
/// `t`: that addition or subtraction and the sign of the exponent in
/// 2 / (1 + exp(sign * 2x)) (-1 and +1). memopt-approximate-math allows the
/// approximate tanh there because memopt-lower-gpu-math computes exactly
/// that form; both ask this one matcher.
struct OnePlusMinusTanh {
  Operation *user;
  float sign;
};
std::optional<OnePlusMinusTanh> matchOnePlusMinusTanh(Value t);

/// Whether `a`, computed in `opA`'s body, and `b`, in `opB`'s, are the same
/// function of the two ops' inputs: the args of inputs that `sameInput`
/// says hold the same data at the same iteration points, the same value
/// from outside the bodies, or equivalent region-free ops
/// (OperationEquivalence) of such values.
bool isSameBodyValue(Value a, linalg::GenericOp opA, Value b,
                     linalg::GenericOp opB,
                     function_ref<bool(OpOperand &, OpOperand &)> sameInput);

/// Whether `v`, computed in `op`'s body, is computed from `arg`.
bool isComputedFrom(Value v, BlockArgument arg, linalg::GenericOp op);

/// The values `v` that the maximum `max` reduces (a single-result body
/// `yield max(v, acc)`, `acc` used only there and `v` not computed from
/// it), or null.
Value getMaximumValues(linalg::GenericOp max);

/// Whether `op`'s body is exactly `yield combiner(in, acc)` over its one
/// input.
template <typename CombinerOp>
bool isPlainReduction(linalg::GenericOp op) {
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

/// A linalg.fill of `init` (a tensor or a buffer) with `value`, in the
/// generic form memopt-decompose-linalg gives fills (kf::getFillValue reads
/// it); its result for a tensor, null for a buffer.
Value createFillGeneric(RewriterBase &rewriter, Location loc, Value value,
                        Value init);

/// The partial of reduction `g` with its loop `k` reduced first: indexed by
/// every other loop, then combined over the other loops.
struct LoopPartial {
  unsigned k;
  /// Every loop's extent but k's.
  SmallVector<int64_t> shape;
  /// From g's loops to the partial.
  AffineMap map;
  /// g's iterator types but k's: the combine's.
  SmallVector<utils::IteratorType> restIterators;
  /// `m` (which does not read loop k) over the combine's loops.
  AffineMap dropLoop(AffineMap m) const;
};
LoopPartial getLoopPartial(linalg::GenericOp g, unsigned k);

/// `t` with its dim `pos` split into (size / inner, inner) by a
/// tensor.expand_shape.
Value expandDim(OpBuilder &b, Location loc, Value t, unsigned pos,
                int64_t inner);

/// A body builder `yield comb(partial, acc)` with the combiner of
/// single-output reduction `g` (matchCombiner: the one user of its
/// accumulator): the second stage of a reduction split in two.
std::function<void(OpBuilder &, Location, ValueRange)>
getCombinerBodyBuilder(linalg::GenericOp g);

} // namespace mlir::memopt

#endif // MEMOPT_LIB_TRANSFORMS_TENSORUTILS_H
