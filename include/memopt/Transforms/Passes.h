//===- Passes.h - memopt pass declarations ------------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declares every memopt pass (generated from Passes.td) and their
// registration.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_TRANSFORMS_PASSES_H
#define MEMOPT_TRANSFORMS_PASSES_H

#include "memopt/Dialect/MemoptDialect.h"
#include "memopt/Transforms/Options.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace mlir::memopt {

#define GEN_PASS_DECL
#include "memopt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "memopt/Transforms/Passes.h.inc"

} // namespace mlir::memopt

#endif // MEMOPT_TRANSFORMS_PASSES_H
