// RUN: memopt-opt %s --memopt-bool-vectors-as-bytes -verify-diagnostics

// A gather of i1 data has no byte-per-element form here.
llvm.func @gather(%ptrs: vector<4x!llvm.ptr>, %m: vector<4xi1>) -> vector<4xi1> {
  // expected-error @+1 {{a gather or scatter of i1 elements has no byte-per-element lowering}}
  %g = llvm.intr.masked.gather %ptrs, %m, %m {alignment = 1 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xi1>) -> vector<4xi1>
  llvm.return %g : vector<4xi1>
}
