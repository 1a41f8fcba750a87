//===- TensorUtils.cpp - tensor-level helpers of memopt passes -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TensorUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value mlir::memopt::createElementwiseGeneric(
    OpBuilder &b, Location loc, Value input, Type elementType,
    function_ref<Value(OpBuilder &, Location, Value)> body) {
  auto from = cast<RankedTensorType>(input.getType());
  auto to = from.clone(elementType);
  Value empty =
      tensor::EmptyOp::create(b, loc, from.getShape(), elementType);
  AffineMap id = b.getMultiDimIdentityMap(from.getRank());
  SmallVector<utils::IteratorType> iters(from.getRank(),
                                         utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{to}, ValueRange{input}, ValueRange{empty},
             ArrayRef<AffineMap>{id, id}, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args[0]));
             })
      .getResult(0);
}

void mlir::memopt::sinkToFirstUser(Operation *op) {
  Operation *first = nullptr;
  for (Operation *u : op->getUsers()) {
    if (u->getBlock() != op->getBlock())
      return;
    if (!first || u->isBeforeInBlock(first))
      first = u;
  }
  if (first && op->isBeforeInBlock(first))
    op->moveBefore(first);
}

std::optional<memopt::OnePlusMinusTanh>
mlir::memopt::matchOnePlusMinusTanh(Value t) {
  if (!t.getType().isF32() || !t.hasOneUse())
    return std::nullopt;
  auto isOne = [](Value v) {
    FloatAttr c;
    return matchPattern(v, m_Constant(&c)) && c.getValue().isExactlyValue(1.0);
  };
  Operation *user = *t.getUsers().begin();
  if (auto add = dyn_cast<arith::AddFOp>(user);
      add && isOne(add.getLhs() == t ? add.getRhs() : add.getLhs()))
    return OnePlusMinusTanh{user, -1.0f};
  if (auto sub = dyn_cast<arith::SubFOp>(user);
      sub && sub.getRhs() == t && isOne(sub.getLhs()))
    return OnePlusMinusTanh{user, 1.0f};
  return std::nullopt;
}
