//===- MemoptDialect.cpp - memopt's own operations -----------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "memopt/Dialect/MemoptDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::memopt;

#include "memopt/Dialect/MemoptDialect.cpp.inc"

#include "memopt/Dialect/MemoptEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "memopt/Dialect/MemoptAttrs.cpp.inc"

void MemoptDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "memopt/Dialect/MemoptOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "memopt/Dialect/MemoptAttrs.cpp.inc"
      >();
}

void KernelGroupOp::build(OpBuilder &builder, OperationState &state) {
  Region *body = state.addRegion();
  body->push_back(new Block());
}

LogicalResult KernelGroupOp::verify() {
  for (Operation &op : getBody().front())
    if (op.getName().getStringRef() != "linalg.generic")
      return op.emitOpError("inside a memopt.kernel_group: only "
                            "linalg.generic ops may form a kernel group");
  if (Attribute s = getStrategyAttr();
      s && !isa<RowStrategyAttr, StreamedRowStrategyAttr,
                ElementwiseStrategyAttr, TileTransposeStrategyAttr,
                ColumnReduceStrategyAttr, NaiveStrategyAttr>(s))
    return emitOpError("strategy must be a #memopt strategy attribute, got ")
           << s;
  return success();
}

LogicalResult LastArrivalOp::verify() {
  if (!(*this)->getParentOfType<gpu::LaunchOp>() &&
      !(*this)->getParentOfType<gpu::GPUFuncOp>())
    return emitOpError("counts a block's arrival: expected it inside a "
                       "gpu.launch or a gpu.func");
  return success();
}

LogicalResult ClusterLoadOp::verify() {
  MemRefType type = getMemRefType();
  if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
    return emitOpError("reads shared memory: expected a workgroup memref, got ")
           << type;
  if (!type.getLayout().isIdentity())
    return emitOpError("expected an identity layout, got ") << type;
  if (static_cast<int64_t>(getIndices().size()) != type.getRank())
    return emitOpError("expected ")
           << type.getRank() << " indices, got " << getIndices().size();
  if (getResult().getType() != type.getElementType())
    return emitOpError("result type ")
           << getResult().getType() << " is not the element type "
           << type.getElementType();
  return success();
}

#define GET_OP_CLASSES
#include "memopt/Dialect/MemoptOps.cpp.inc"
