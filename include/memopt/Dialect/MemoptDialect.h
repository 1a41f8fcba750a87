//===- MemoptDialect.h - memopt's own operations ------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_DIALECT_MEMOPTDIALECT_H
#define MEMOPT_DIALECT_MEMOPTDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "memopt/Dialect/MemoptDialect.h.inc"

#define GET_OP_CLASSES
#include "memopt/Dialect/MemoptOps.h.inc"

namespace mlir::memopt {
/// Unit attribute of a gpu.launch whose kernel walks its work in a
/// grid-stride loop over the clusters along x: any smaller whole number of
/// clusters computes the same result (the manifest says "persistent").
inline constexpr llvm::StringLiteral kPersistentAttrName = "memopt.persistent";
} // namespace mlir::memopt

#endif // MEMOPT_DIALECT_MEMOPTDIALECT_H
