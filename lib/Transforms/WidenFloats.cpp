//===- WidenFloats.cpp - compute a reference in f64 -----------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-widen-floats: the body of a tensor-level
// function computes in f64 wherever it computed in f16, bf16 or f32, with
// its signature unchanged (inputs widened on entry, results rounded on
// return). The CPU reference built this way is the function's value in
// near-exact arithmetic rounded once, against which kernels that reduce long
// low-precision rows can be checked meaningfully.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "TensorUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTWIDENFLOATSPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

static bool isNarrowFloat(Type t) { return t.isF16() || t.isBF16() || t.isF32(); }

/// `t` with f16/bf16/f32 (as a scalar or tensor element) replaced by f64.
static Type widen(Type t) {
  Type f64 = Float64Type::get(t.getContext());
  if (isNarrowFloat(t))
    return f64;
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    if (isNarrowFloat(tensor.getElementType()))
      return tensor.clone(f64);
  return t;
}

/// Whether `t` is a type this pass handles: integers, index, floats up to
/// f64 and static tensors of them.
static bool isHandled(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return tensor.hasStaticShape() && isHandled(tensor.getElementType());
  return t.isIntOrIndex() || isNarrowFloat(t) || t.isF64();
}

/// Scalar float `v` extended or truncated to float type `to`. f64 to bf16
/// goes through f32 (the host has no direct conversion), rounded to odd
/// there so that the bf16 rounding after it is the correctly rounded one: an
/// inexact f32 value is the one toward zero with its last bit set.
static Value convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (to.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  if (to.isBF16() && from.isF64()) {
    Type f32 = b.getF32Type(), i32 = b.getI32Type();
    Value t = arith::TruncFOp::create(b, loc, f32, v);
    Value back = arith::ExtFOp::create(b, loc, from, t);
    // (NaN compares false: kept as it is.)
    Value inexact =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, back, v);
    Value awayFromZero = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OGT, math::AbsFOp::create(b, loc, back),
        math::AbsFOp::create(b, loc, v));
    Value bits = arith::BitcastOp::create(b, loc, i32, t);
    Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
    Value towardZero = arith::SelectOp::create(
        b, loc, awayFromZero, arith::SubIOp::create(b, loc, bits, one), bits);
    Value odd = arith::BitcastOp::create(
        b, loc, f32, arith::OrIOp::create(b, loc, towardZero, one));
    v = arith::SelectOp::create(b, loc, inexact, odd, t);
  }
  return arith::TruncFOp::create(b, loc, to, v);
}

/// `v` (a float or a tensor of floats) converted to type `to`.
static Value convertValue(OpBuilder &b, Location loc, Value v, Type to) {
  if (auto tensor = dyn_cast<RankedTensorType>(to))
    return createElementwiseGeneric(b, loc, v, tensor.getElementType(),
                                    [&](OpBuilder &nb, Location l, Value x) {
                                      return convertFloat(
                                          nb, l, x, tensor.getElementType());
                                    });
  return convertFloat(b, loc, v, to);
}

/// `attr` (a float or dense float constant) in f64.
static TypedAttr widenAttr(TypedAttr attr) {
  auto toDouble = [](APFloat v) {
    bool losesInfo = false;
    v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
    return v;
  };
  Type f64 = Float64Type::get(attr.getContext());
  if (auto f = dyn_cast<FloatAttr>(attr))
    return FloatAttr::get(f64, toDouble(f.getValue()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    return dense.mapValues(f64, [&](const APFloat &v) {
      return toDouble(v).bitcastToAPInt();
    });
  return attr;
}

namespace {
struct MemoptWidenFloatsPass final
    : memopt::impl::MemoptWidenFloatsPassBase<MemoptWidenFloatsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Only what the input stage leaves: generics, their bodies, empty and
    // reshaped tensors, arith and math.
    WalkResult unsupported = func.walk([&](Operation *op) {
      if (op == func.getOperation())
        return WalkResult::advance();
      bool known =
          isa<linalg::GenericOp, linalg::YieldOp, linalg::IndexOp,
              tensor::EmptyOp, tensor::ExpandShapeOp,
              tensor::CollapseShapeOp, tensor::ExtractSliceOp,
              tensor::InsertSliceOp, tensor::ConcatOp, tensor::PadOp,
              tensor::YieldOp, func::ReturnOp>(op) ||
          isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
              op->getDialect());
      // A float constant this pass cannot convert (dense_resource, ...).
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (isa<FloatType>(getElementTypeOrSelf(constant.getType())) &&
            !isa<FloatAttr, DenseFPElementsAttr>(constant.getValue())) {
          op->emitError("cannot compute the reference in f64: constant ")
              << constant.getValue() << " is not widened";
          return WalkResult::interrupt();
        }
      if (!known || isa<arith::BitcastOp>(op)) {
        op->emitError("cannot compute the reference in f64: '")
            << op->getName() << "' is not widened";
        return WalkResult::interrupt();
      }
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        if (!isHandled(t)) {
          op->emitError("cannot compute the reference in f64: type ")
              << t << " is not widened";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    for (Type t : func.getArgumentTypes())
      if (!isHandled(t)) {
        func.emitError("cannot compute the reference in f64: argument type ")
            << t << " is not widened";
        return signalPassFailure();
      }

    Block &entry = func.getBody().front();
    // Every value but the arguments takes its f64 type.
    SmallVector<Operation *> casts;
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (&block != &entry)
            for (BlockArgument arg : block.getArguments())
              arg.setType(widen(arg.getType()));
      if (op == func.getOperation())
        return;
      for (OpResult result : op->getResults())
        result.setType(widen(result.getType()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        constant.setValueAttr(widenAttr(constant.getValue()));
      if (isa<arith::ExtFOp, arith::TruncFOp>(op))
        casts.push_back(op);
    });
    // Arguments are widened on entry, results rounded on return.
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&entry);
    for (BlockArgument arg : entry.getArguments()) {
      Type wide = widen(arg.getType());
      if (wide == arg.getType() || arg.use_empty())
        continue;
      Value w = convertValue(b, func.getLoc(), arg, wide);
      arg.replaceAllUsesExcept(w, w.getDefiningOp());
    }
    // Conversions between the widened floats are now f64 to f64 (checked
    // once the arguments are widened: a conversion of an argument too).
    for (Operation *op : casts)
      if (op->getOperand(0).getType() == op->getResult(0).getType()) {
        op->getResult(0).replaceAllUsesWith(op->getOperand(0));
        op->erase();
      }
    func.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      for (auto [operand, type] : llvm::zip(
               ret->getOpOperands(), func.getFunctionType().getResults()))
        if (operand.get().getType() != type)
          operand.set(convertValue(b, ret.getLoc(), operand.get(), type));
    });
  }
};
} // namespace
