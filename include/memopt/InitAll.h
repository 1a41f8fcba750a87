//===- InitAll.h - register memopt and upstream components --*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Registration entry points for tools and embedding compilers.
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_INITALL_H
#define MEMOPT_INITALL_H

namespace mlir {
class DialectRegistry;
namespace memopt {

/// Adds every dialect, interface and translation memopt's pipelines use
/// (upstream dialects, NVVM target attributes, LLVM IR translations).
void registerMemoptDialects(DialectRegistry &registry);

/// Registers memopt's passes and named pipelines, and the upstream passes,
/// with the global pass registry (for textual pipelines).
void registerMemoptPasses();

} // namespace memopt
} // namespace mlir

#endif // MEMOPT_INITALL_H
