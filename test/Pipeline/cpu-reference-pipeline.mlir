// RUN: memopt-opt %s --memopt-cpu-reference-pipeline | FileCheck %s

// The reference lowers the original tensor function for the host: an LLVM
// function with one bare pointer per buffer (inputs, then outputs), no GPU.
// CHECK-LABEL: llvm.func @scale(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
// CHECK:         llvm.fmul
// CHECK-NOT:     gpu.
// CHECK-NOT:     func.func
// CHECK-NOT:     linalg.
func.func @scale(%x: tensor<64x256xf32>, %s: tensor<256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %b = linalg.broadcast ins(%s : tensor<256xf32>) outs(%e : tensor<64x256xf32>) dimensions = [0]
  %m = linalg.mul ins(%x, %b : tensor<64x256xf32>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}
