;
; Resource Bindings:
;
; Name                                 Type  Format         Dim      ID      HLSL Bind  Count
; ------------------------------ ---------- ------- ----------- ------- -------------- ------
; Tess                              cbuffer      NA          NA     CB0            cb0     1
;
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%dx.types.CBufRet.f32 = type { float, float, float, float }
%Tess = type { i32 }

define void @"\01?PatchFn@@YA?AUPatchData@@V?$InputPatch@UVSOut@@$02@@V?$OutputPatch@UHSOut@@$02@@I@Z"() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)
  %2 = call i32 @dx.op.primitiveID.i32(i32 108)  ; PrimitiveID()
  br label %3

; <label>:3                                       ; preds = %9, %0
  %4 = phi float [ undef, %0 ], [ %27, %9 ]
  %5 = phi float [ undef, %0 ], [ %29, %9 ]
  %6 = phi float [ undef, %0 ], [ %31, %9 ]
  %7 = phi i32 [ 0, %0 ], [ %15, %9 ]
  %8 = icmp ult i32 %7, 3
  br i1 %8, label %9, label %32

; <label>:9                                       ; preds = %3
  %10 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %1, i32 0)  ; CBufferLoadLegacy(handle,regIndex)
  %11 = extractvalue %dx.types.CBufRet.f32 %10, 0
  %12 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 %7)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %13 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 %7)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %14 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 %7)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %15 = add i32 %7, 1
  %16 = urem i32 %15, 3
  %17 = call float @dx.op.loadOutputControlPoint.f32(i32 103, i32 0, i32 0, i8 0, i32 %16)  ; LoadOutputControlPoint(inputSigId,row,col,index)
  %18 = call float @dx.op.loadOutputControlPoint.f32(i32 103, i32 0, i32 0, i8 1, i32 %16)  ; LoadOutputControlPoint(inputSigId,row,col,index)
  %19 = call float @dx.op.loadOutputControlPoint.f32(i32 103, i32 0, i32 0, i8 2, i32 %16)  ; LoadOutputControlPoint(inputSigId,row,col,index)
  %20 = fsub fast float %12, %17
  %21 = fsub fast float %13, %18
  %22 = fsub fast float %14, %19
  %23 = call float @dx.op.dot3.f32(i32 55, float %20, float %21, float %22, float %20, float %21, float %22)  ; Dot3(ax,ay,az,bx,by,bz)
  %24 = call float @dx.op.unary.f32(i32 24, float %23)  ; Sqrt(value)
  %25 = fmul fast float %11, %24
  %26 = icmp eq i32 %7, 0
  %27 = select i1 %26, float %25, float %4
  %28 = icmp eq i32 %7, 1
  %29 = select i1 %28, float %25, float %5
  %30 = icmp eq i32 %7, 2
  %31 = select i1 %30, float %25, float %6
  br label %3

; <label>:32                                      ; preds = %3
  %33 = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 0, i8 3, i32 0)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %34 = call float @dx.op.binary.f32(i32 35, float %4, float %33)  ; FMax(a,b)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 0, i32 0, i8 0, float %4)  ; StorePatchConstant(outputSigID,row,col,value)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 0, i32 1, i8 0, float %5)  ; StorePatchConstant(outputSigID,row,col,value)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 0, i32 2, i8 0, float %6)  ; StorePatchConstant(outputSigID,row,col,value)
  call void @dx.op.storePatchConstant.f32(i32 106, i32 1, i32 0, i8 0, float %34)  ; StorePatchConstant(outputSigID,row,col,value)
  call void @dx.op.storePatchConstant.i32(i32 106, i32 2, i32 0, i8 0, i32 %2)  ; StorePatchConstant(outputSigID,row,col,value)
  ret void
}

define void @main() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)  ; CreateHandle(resourceClass,rangeId,index,nonUniformIndex)
  %2 = call i32 @dx.op.outputControlPointID.i32(i32 107)  ; OutputControlPointID()
  %3 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 %2)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %4 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 %2)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %5 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 %2)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %6 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %1, i32 0)  ; CBufferLoadLegacy(handle,regIndex)
  %7 = extractvalue %dx.types.CBufRet.f32 %6, 0
  %8 = fmul fast float %3, %7
  %9 = fmul fast float %4, %7
  %10 = fmul fast float %5, %7
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %8)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %9)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 2, float %10)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  ret void
}

; Function Attrs: nounwind readnone
declare i32 @dx.op.outputControlPointID.i32(i32) #0

; Function Attrs: nounwind readnone
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind readonly
declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #1

; Function Attrs: nounwind readonly
declare %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32, %dx.types.Handle, i32) #1

; Function Attrs: nounwind
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #2

; Function Attrs: nounwind readnone
declare i32 @dx.op.primitiveID.i32(i32) #0

; Function Attrs: nounwind readnone
declare float @dx.op.loadOutputControlPoint.f32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind readnone
declare float @dx.op.dot3.f32(i32, float, float, float, float, float, float) #0

; Function Attrs: nounwind readnone
declare float @dx.op.unary.f32(i32, float) #0

; Function Attrs: nounwind readnone
declare float @dx.op.binary.f32(i32, float, float) #0

; Function Attrs: nounwind
declare void @dx.op.storePatchConstant.f32(i32, i32, i32, i8, float) #2

; Function Attrs: nounwind
declare void @dx.op.storePatchConstant.i32(i32, i32, i32, i8, i32) #2

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
!2 = !{!"hs", i32 6, i32 0}
!3 = !{null, null, !4, null}
!4 = !{!5}
!5 = !{i32 0, %Tess* undef, !"Tess", i32 0, i32 0, i32 1, i32 4, null}
!6 = !{void ()* @main, !"main", !7, !3, !18}
!7 = !{!8, !12, !13}
!8 = !{!9, !11}
!9 = !{i32 0, !"POSITION", i8 9, i8 0, !10, i8 0, i32 1, i8 3, i32 0, i8 0, null}
!10 = !{i32 0}
!11 = !{i32 1, !"COLOR", i8 9, i8 0, !10, i8 0, i32 1, i8 4, i32 1, i8 0, null}
!12 = !{!9}
!13 = !{!14, !16, !17}
!14 = !{i32 0, !"SV_TessFactor", i8 9, i8 25, !15, i8 0, i32 3, i8 1, i32 0, i8 3, null}
!15 = !{i32 0, i32 1, i32 2}
!16 = !{i32 1, !"SV_InsideTessFactor", i8 9, i8 26, !10, i8 0, i32 1, i8 1, i32 3, i8 3, null}
!17 = !{i32 2, !"PRIMID", i8 5, i8 0, !10, i8 0, i32 1, i8 1, i32 0, i8 0, null}
!18 = !{i32 3, !19}
!19 = !{void ()* @"\01?PatchFn@@YA?AUPatchData@@V?$InputPatch@UVSOut@@$02@@V?$OutputPatch@UHSOut@@$02@@I@Z", i32 3, i32 3, i32 2, i32 3, i32 3, float 1.500000e+01}
