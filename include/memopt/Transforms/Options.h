//===- Options.h - memopt pass option enums -----------------*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Enumerations used as typed pass options (declared before the generated
// pass declarations that refer to them).
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_TRANSFORMS_OPTIONS_H
#define MEMOPT_TRANSFORMS_OPTIONS_H

namespace mlir::memopt {

/// How `memopt-form-kernels` maps linalg ops onto GPU kernels.
enum class KernelStrategy {
  /// One kernel per op, one thread per output point, scalar accesses.
  Naive,
  /// Fused row-reduction, vectorized elementwise and tiled transpose kernels.
  Fused,
};

/// How `memopt-bank-fix` repairs shared-memory bank conflicts.
enum class BankFixMode {
  /// Leave workgroup buffers alone.
  None,
  /// Pad the innermost dimension by one access width.
  Pad,
  /// XOR-swizzle the innermost index with the row.
  Swizzle,
  /// Padding if it removes every conflict, else the swizzle.
  Auto,
};

} // namespace mlir::memopt

#endif // MEMOPT_TRANSFORMS_OPTIONS_H
