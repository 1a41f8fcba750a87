//===- MemoptBase.td - the memopt dialect -------------------*- tablegen -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MEMOPT_DIALECT_MEMOPTBASE_TD
#define MEMOPT_DIALECT_MEMOPTBASE_TD

include "mlir/IR/OpBase.td"

def Memopt_Dialect : Dialect {
  let name = "memopt";
  let cppNamespace = "::mlir::memopt";
  let summary = "memopt's kernel plan and kernel-level operations";
  let description = [{
    The plan of kernel formation (`memopt.kernel_group` ops carrying a
    strategy attribute, the `#memopt.target` chip description) and the
    operations memopt's kernels need inside `gpu.launch` bodies where
    upstream dialects have no memref-level equivalent.
  }];
  let useDefaultAttributePrinterParser = 1;
}

#endif // MEMOPT_DIALECT_MEMOPTBASE_TD
