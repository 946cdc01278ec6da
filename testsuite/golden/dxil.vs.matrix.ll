;
; Resource Bindings:
;
; Name                                 Type  Format         Dim      ID      HLSL Bind  Count
; ------------------------------ ---------- ------- ----------- ------- -------------- ------
; $Globals                          cbuffer      NA          NA     CB0            cb0     1
;
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%dx.types.CBufRet.f32 = type { float, float, float, float }
%"$Globals" = type { i32 }

define void @main() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)
  %2 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %3 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %4 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %5 = call i32 @dx.op.loadInput.i32(i32 4, i32 1, i32 0, i8 0, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %6 = call i32 @dx.op.loadInput.i32(i32 4, i32 2, i32 0, i8 0, i32 undef)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %7 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %1, i32 0)  ; CBufferLoadLegacy(handle,regIndex)
  %8 = extractvalue %dx.types.CBufRet.f32 %7, 0
  %9 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %1, i32 1)  ; CBufferLoadLegacy(handle,regIndex)
  %10 = extractvalue %dx.types.CBufRet.f32 %9, 0
  %11 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %1, i32 2)  ; CBufferLoadLegacy(handle,regIndex)
  %12 = extractvalue %dx.types.CBufRet.f32 %11, 0
  %13 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %1, i32 3)  ; CBufferLoadLegacy(handle,regIndex)
  %14 = extractvalue %dx.types.CBufRet.f32 %13, 0
  %15 = extractvalue %dx.types.CBufRet.f32 %7, 1
  %16 = extractvalue %dx.types.CBufRet.f32 %9, 1
  %17 = extractvalue %dx.types.CBufRet.f32 %11, 1
  %18 = extractvalue %dx.types.CBufRet.f32 %13, 1
  %19 = extractvalue %dx.types.CBufRet.f32 %7, 2
  %20 = extractvalue %dx.types.CBufRet.f32 %9, 2
  %21 = extractvalue %dx.types.CBufRet.f32 %11, 2
  %22 = extractvalue %dx.types.CBufRet.f32 %13, 2
  %23 = extractvalue %dx.types.CBufRet.f32 %7, 3
  %24 = extractvalue %dx.types.CBufRet.f32 %9, 3
  %25 = extractvalue %dx.types.CBufRet.f32 %11, 3
  %26 = extractvalue %dx.types.CBufRet.f32 %13, 3
  %27 = fmul fast float %2, %8
  %28 = fmul fast float %3, %15
  %29 = fadd fast float %27, %28
  %30 = fmul fast float %4, %19
  %31 = fadd fast float %29, %30
  %32 = fadd fast float %31, %23
  %33 = fmul fast float %2, %10
  %34 = fmul fast float %3, %16
  %35 = fadd fast float %33, %34
  %36 = fmul fast float %4, %20
  %37 = fadd fast float %35, %36
  %38 = fadd fast float %37, %24
  %39 = fmul fast float %2, %12
  %40 = fmul fast float %3, %17
  %41 = fadd fast float %39, %40
  %42 = fmul fast float %4, %21
  %43 = fadd fast float %41, %42
  %44 = fadd fast float %43, %25
  %45 = fmul fast float %2, %14
  %46 = fmul fast float %3, %18
  %47 = fadd fast float %45, %46
  %48 = fmul fast float %4, %22
  %49 = fadd fast float %47, %48
  %50 = fadd fast float %49, %26
  switch i32 %5, label %53 [
    i32 0, label %51
    i32 1, label %52
  ]

; <label>:51                                      ; preds = %0
  br label %56

; <label>:52                                      ; preds = %0
  br label %53

; <label>:53                                      ; preds = %52, %0
  %54 = phi float [ 0.000000e+00, %0 ], [ 1.000000e+00, %52 ]
  %55 = uitofp i32 %6 to float
  br label %56

; <label>:56                                      ; preds = %53, %51
  %57 = phi float [ 1.000000e+00, %53 ], [ %2, %51 ]
  %58 = phi float [ %54, %53 ], [ %3, %51 ]
  %59 = phi float [ %55, %53 ], [ %4, %51 ]
  %60 = shl i32 %5, 2
  %61 = and i32 %6, 3
  %62 = sdiv i32 %5, 3
  %63 = sub i32 %61, %62
  %64 = or i32 %60, %63
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %32)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %38)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 2, float %44)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 3, float %50)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 0, float %57)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 1, float %58)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 2, float %59)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.i32(i32 5, i32 2, i32 0, i8 0, i32 %64)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  ret void
}

; Function Attrs: nounwind readnone
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind readnone
declare i32 @dx.op.loadInput.i32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind readonly
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #1

; Function Attrs: nounwind readonly
declare %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32, %dx.types.Handle, i32) #1

; Function Attrs: nounwind
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #2

; Function Attrs: nounwind
declare void @dx.op.storeOutput.i32(i32, i32, i32, i8, i32) #2

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind readonly }
attributes #2 = { nounwind }

!dx.version = !{!0}
!dx.valver = !{!1}
!dx.shaderModel = !{!2}
!dx.resources = !{!3}
!dx.entryPoints = !{!6}

!0 = !{i32 1, i32 0}
!1 = !{i32 1, i32 8}
!2 = !{!"vs", i32 6, i32 0}
!3 = !{null, null, !4, null}
!4 = !{!5}
!5 = !{i32 0, %"$Globals"* undef, !"$Globals", i32 0, i32 0, i32 1, i32 64, null}
!6 = !{void ()* @main, !"main", !7, !3, null}
!7 = !{!8, !13, null}
!8 = !{!9, !11, !12}
!9 = !{i32 0, !"POSITION", i8 9, i8 0, !10, i8 0, i32 1, i8 3, i32 0, i8 0, null}
!10 = !{i32 0}
!11 = !{i32 1, !"KIND", i8 4, i8 0, !10, i8 0, i32 1, i8 1, i32 0, i8 3, null}
!12 = !{i32 2, !"SV_VertexID", i8 5, i8 1, !10, i8 0, i32 1, i8 1, i32 1, i8 0, null}
!13 = !{!14, !15, !16}
!14 = !{i32 0, !"SV_Position", i8 9, i8 3, !10, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!15 = !{i32 1, !"COLOR", i8 9, i8 0, !10, i8 2, i32 1, i8 3, i32 1, i8 0, null}
!16 = !{i32 2, !"FLAGS", i8 4, i8 0, !10, i8 1, i32 1, i8 1, i32 2, i8 0, null}
