//===- BoolVectorsAsBytes.cpp - i1 vectors in byte-per-element memory -----===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// memopt stores i1 tensors one byte per element (the manifest's "i1", as
// numpy and PyTorch store bools), and a scalar `llvm.load i1` reads one such
// byte. A vector of i1, however, is bit-packed in LLVM's memory model: a
// `load <4 x i1>` reads the low 4 bits of one byte. Widened accesses
// (vector.load/store of i1 from 16-byte runs) would therefore read four
// bools from one byte and pack four results into one. This pass gives every
// vector-of-i1 memory access its byte-per-element meaning: the access moves
// a vector of i8, truncated after a load and zero-extended before a store.
//
//===----------------------------------------------------------------------===//

#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTBOOLVECTORSASBYTESPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;

namespace {
/// The byte vector that stores `t` when `t` is a vector of several i1.
static VectorType getByteVector(Type t) {
  auto vt = dyn_cast<VectorType>(t);
  if (!vt || !vt.getElementType().isInteger(1) || vt.getNumElements() < 2 ||
      vt.isScalable() || vt.getRank() != 1)
    return {};
  return VectorType::get(vt.getShape(), IntegerType::get(t.getContext(), 8));
}

/// Makes `result` (a vector of i1) produced as bytes and truncated after.
static void truncateAfter(OpBuilder &b, OpResult result, VectorType bytes) {
  Type boolType = result.getType();
  result.setType(bytes);
  b.setInsertionPointAfter(result.getOwner());
  auto trunc = LLVM::TruncOp::create(b, result.getLoc(), boolType, result);
  result.replaceAllUsesExcept(trunc.getResult(), trunc);
}

/// Replaces operand `operand` (a vector of i1) with its bytes.
static void extendBefore(OpBuilder &b, OpOperand &operand, VectorType bytes) {
  b.setInsertionPoint(operand.getOwner());
  Value ext = LLVM::ZExtOp::create(b, operand.getOwner()->getLoc(), bytes,
                                   operand.get());
  operand.set(ext);
}

struct MemoptBoolVectorsAsBytesPass
    : public memopt::impl::MemoptBoolVectorsAsBytesPassBase<
          MemoptBoolVectorsAsBytesPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    WalkResult r = getOperation()->walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (VectorType bytes = getByteVector(load.getType()))
          truncateAfter(b, cast<OpResult>(load.getResult()), bytes);
        return WalkResult::advance();
      }
      if (auto load = dyn_cast<LLVM::MaskedLoadOp>(op)) {
        if (VectorType bytes = getByteVector(load.getType())) {
          for (OpOperand &passThru : load.getPassThruMutable())
            extendBefore(b, passThru, bytes);
          truncateAfter(b, cast<OpResult>(load.getResult()), bytes);
        }
        return WalkResult::advance();
      }
      // Stores, masked or not: the stored value (operand 0) as bytes.
      if (isa<LLVM::StoreOp, LLVM::MaskedStoreOp>(op)) {
        if (VectorType bytes = getByteVector(op->getOperand(0).getType()))
          extendBefore(b, op->getOpOperand(0), bytes);
        return WalkResult::advance();
      }
      // Gathers and scatters of i1 data have no byte form here: say so
      // rather than move packed bits (their masks are i1 vectors too).
      bool boolData = false;
      if (auto gather = dyn_cast<LLVM::masked_gather>(op))
        boolData = (bool)getByteVector(gather.getType());
      if (auto scatter = dyn_cast<LLVM::masked_scatter>(op))
        boolData = (bool)getByteVector(scatter.getValue().getType());
      if (boolData) {
        op->emitError("a gather or scatter of i1 elements has no "
                      "byte-per-element lowering");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
