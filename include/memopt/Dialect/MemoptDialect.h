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
#include "memopt/Dialect/MemoptEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "memopt/Dialect/MemoptAttrs.h.inc"

#define GET_OP_CLASSES
#include "memopt/Dialect/MemoptOps.h.inc"

namespace mlir::memopt {
/// Unit attribute of a gpu.launch whose kernel walks its work in a
/// grid-stride loop over the clusters along x: any smaller whole number of
/// clusters computes the same result (the manifest says "persistent").
inline constexpr llvm::StringLiteral kPersistentAttrName = "memopt.persistent";

/// Module attribute holding the #memopt.target description.
inline constexpr llvm::StringLiteral kTargetAttrName = "memopt.target";

/// The description of chip `chip` from the table of known chips (sm_80,
/// sm_86, sm_89, sm_90, sm_90a, sm_100, ...), or null when it is unknown.
TargetAttr getKnownTarget(MLIRContext *ctx, StringRef chip);

/// The `memopt.target` of the closest enclosing op that has one, or the
/// known description of sm_90 when none does (IR written without a
/// target, such as hand-written kernels).
TargetAttr getTarget(Operation *op);
} // namespace mlir::memopt

#endif // MEMOPT_DIALECT_MEMOPTDIALECT_H
