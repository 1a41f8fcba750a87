// RUN: memopt-opt %s -split-input-file -verify-diagnostics --pass-pipeline="builtin.module(func.func(memopt-normalize-frontend-forms))"

// A resource whose blob is not in the module (elided by the printer).
func.func @elided() -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' op reads dense_resource<missing>, whose data is not in the module (elided?)}}
  %c = arith.constant dense_resource<missing> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// A blob of the wrong size for its type.
func.func @short() -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' op reads dense_resource<short> of 12 bytes where 'tensor<4xf32>' needs 16}}
  %c = arith.constant dense_resource<short> : tensor<4xf32>
  return %c : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000000803F0000004000004040"
    }
  }
#-}
