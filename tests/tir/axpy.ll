; ModuleID = 'axpy.tk'
source_filename = "axpy.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @axpy__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %5, align 8
  %6 = load float, ptr %a, align 4
  %7 = getelementptr i64, ptr %1, i64 0
  %8 = load i64, ptr %7, align 8
  %N = trunc i64 %8 to i32
  %9 = sdiv i32 %N, 64
  %10 = srem i32 %N, 64
  %11 = icmp sgt i32 %N, 0
  %12 = icmp ne i32 %10, 0
  %13 = and i1 %12, %11
  %14 = zext i1 %13 to i32
  %15 = add i32 %9, %14
  %16 = select i1 true, i32 %15, i32 0
  %17 = sext i32 %16 to i64
  %18 = getelementptr i64, ptr %2, i64 0
  store i64 %17, ptr %18, align 8
  %19 = getelementptr i64, ptr %2, i64 1
  store i64 1, ptr %19, align 8
  %20 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %20, align 8
  %21 = getelementptr i64, ptr %2, i64 3
  store i64 262784, ptr %21, align 8
  ret void
}

define void @axpy__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %tile = alloca [64 x float], align 64
  %tile10 = alloca [64 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %7, align 8
  %8 = load float, ptr %a, align 4
  %9 = getelementptr i64, ptr %1, i64 0
  %10 = load i64, ptr %9, align 8
  %N = trunc i64 %10 to i32
  %11 = getelementptr i64, ptr %1, i64 0
  %12 = load i64, ptr %11, align 8
  %13 = mul i64 1, %12
  %14 = add i64 0, %13
  %15 = sext i32 %2 to i64
  %16 = icmp slt i64 %15, 1099511627776
  %17 = select i1 %16, i64 %15, i64 1099511627776
  %18 = icmp sgt i64 %17, -1099511627776
  %19 = select i1 %18, i64 %17, i64 -1099511627776
  %20 = mul i64 %19, 64
  %21 = icmp sge i64 %20, 0
  %22 = and i1 true, %21
  %23 = add i64 %20, 64
  %24 = and i1 %22, true
  %25 = icmp sle i64 %23, %14
  %26 = and i1 %24, %25
  %27 = getelementptr i64, ptr %1, i64 0
  %28 = load i64, ptr %27, align 8
  %29 = mul i64 1, %28
  %30 = add i64 0, %29
  %31 = sext i32 %2 to i64
  %32 = icmp slt i64 %31, 1099511627776
  %33 = select i1 %32, i64 %31, i64 1099511627776
  %34 = icmp sgt i64 %33, -1099511627776
  %35 = select i1 %34, i64 %33, i64 -1099511627776
  %36 = mul i64 %35, 64
  %37 = icmp sge i64 %36, 0
  %38 = and i1 true, %37
  %39 = add i64 %36, 64
  %40 = and i1 %38, true
  %41 = icmp sle i64 %39, %30
  %42 = and i1 %40, %41
  %43 = and i1 %26, %42
  %44 = getelementptr i64, ptr %1, i64 0
  %45 = load i64, ptr %44, align 8
  %46 = mul i64 1, %45
  %47 = add i64 0, %46
  %48 = sext i32 %2 to i64
  %49 = icmp slt i64 %48, 1099511627776
  %50 = select i1 %49, i64 %48, i64 1099511627776
  %51 = icmp sgt i64 %50, -1099511627776
  %52 = select i1 %51, i64 %50, i64 -1099511627776
  %53 = mul i64 %52, 64
  %54 = icmp sge i64 %53, 0
  %55 = and i1 true, %54
  %56 = add i64 %53, 64
  %57 = and i1 %55, true
  %58 = icmp sle i64 %56, %47
  %59 = and i1 %57, %58
  %60 = and i1 %43, %59
  br i1 %60, label %fuse.inside, label %fuse.edge

fuse.inside:                                      ; preds = %start
  %61 = mul i64 0, %30
  %62 = add i64 %61, %36
  %63 = getelementptr float, ptr %X, i64 %62
  %64 = mul i64 0, %47
  %65 = add i64 %64, %53
  %66 = getelementptr float, ptr %Y, i64 %65
  br label %st.row

fuse.edge:                                        ; preds = %start
  br label %gl.row

fuse.done:                                        ; preds = %done21, %done
  ret void

st.row:                                           ; preds = %done2, %fuse.inside
  %i = phi i64 [ 0, %fuse.inside ], [ %83, %done2 ]
  %67 = icmp slt i64 %i, 1
  br i1 %67, label %body, label %done

body:                                             ; preds = %st.row
  %68 = add i64 0, %i
  %69 = add i64 0, %68
  %70 = mul i64 %69, %14
  br label %st.col

done:                                             ; preds = %st.row
  br label %fuse.done

st.col:                                           ; preds = %body1, %body
  %i3 = phi i64 [ 0, %body ], [ %82, %body1 ]
  %71 = icmp slt i64 %i3, 64
  br i1 %71, label %body1, label %done2

body1:                                            ; preds = %st.col
  %72 = add i64 %i3, 0
  %73 = getelementptr float, ptr %66, i64 %72
  %74 = load float, ptr %73, align 4
  %75 = getelementptr float, ptr %63, i64 %72
  %76 = load float, ptr %75, align 4
  %77 = fmul float %76, %8
  %78 = fadd float %77, %74
  %79 = add i64 %20, %72
  %80 = add i64 %70, %79
  %81 = getelementptr float, ptr %Y, i64 %80
  store float %78, ptr %81, align 4
  %82 = add i64 %i3, 1
  br label %st.col

done2:                                            ; preds = %st.col
  %83 = add i64 %i, 1
  br label %st.row

gl.row:                                           ; preds = %done8, %fuse.edge
  %i6 = phi i64 [ 0, %fuse.edge ], [ %117, %done8 ]
  %84 = icmp slt i64 %i6, 1
  br i1 %84, label %body4, label %done5

body4:                                            ; preds = %gl.row
  %85 = add i64 0, %i6
  %86 = icmp slt i64 %85, 1
  %87 = icmp sge i64 %85, 0
  %88 = and i1 %87, %86
  %89 = and i1 true, %88
  %90 = add i64 0, %85
  %91 = mul i64 %90, %30
  %92 = sub i64 0, %36
  %93 = icmp sgt i64 %92, 0
  %94 = select i1 %93, i64 %92, i64 0
  %95 = sub i64 %30, %36
  %96 = icmp slt i64 %95, 64
  %97 = select i1 %96, i64 %95, i64 64
  %98 = select i1 %89, i64 %97, i64 0
  %99 = add i64 %91, %36
  br label %gl.chunk

done5:                                            ; preds = %gl.row
  br label %gl.row11

gl.chunk:                                         ; preds = %body7, %body4
  %i9 = phi i64 [ 0, %body4 ], [ %116, %body7 ]
  %100 = icmp slt i64 %i9, 4
  br i1 %100, label %body7, label %done8

body7:                                            ; preds = %gl.chunk
  %101 = mul i64 %i9, 16
  %102 = insertelement <16 x i64> undef, i64 %101, i32 0
  %103 = shufflevector <16 x i64> %102, <16 x i64> undef, <16 x i32> zeroinitializer
  %104 = insertelement <16 x i64> undef, i64 %94, i32 0
  %105 = shufflevector <16 x i64> %104, <16 x i64> undef, <16 x i32> zeroinitializer
  %106 = insertelement <16 x i64> undef, i64 %98, i32 0
  %107 = shufflevector <16 x i64> %106, <16 x i64> undef, <16 x i32> zeroinitializer
  %108 = add <16 x i64> %103, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %109 = icmp slt <16 x i64> %108, %107
  %110 = icmp sge <16 x i64> %108, %105
  %111 = and <16 x i1> %110, %109
  %112 = add i64 %99, %101
  %113 = getelementptr float, ptr %X, i64 %112
  %114 = getelementptr float, ptr %tile, i64 %101
  %115 = call <16 x float> @llvm.masked.load.v16f32.p0(ptr align 4 %113, <16 x i1> %111, <16 x float> zeroinitializer)
  store <16 x float> %115, ptr %114, align 4
  %116 = add i64 %i9, 1
  br label %gl.chunk

done8:                                            ; preds = %gl.chunk
  %117 = add i64 %i6, 1
  br label %gl.row

gl.row11:                                         ; preds = %done17, %done5
  %i14 = phi i64 [ 0, %done5 ], [ %151, %done17 ]
  %118 = icmp slt i64 %i14, 1
  br i1 %118, label %body12, label %done13

body12:                                           ; preds = %gl.row11
  %119 = add i64 0, %i14
  %120 = icmp slt i64 %119, 1
  %121 = icmp sge i64 %119, 0
  %122 = and i1 %121, %120
  %123 = and i1 true, %122
  %124 = add i64 0, %119
  %125 = mul i64 %124, %47
  %126 = sub i64 0, %53
  %127 = icmp sgt i64 %126, 0
  %128 = select i1 %127, i64 %126, i64 0
  %129 = sub i64 %47, %53
  %130 = icmp slt i64 %129, 64
  %131 = select i1 %130, i64 %129, i64 64
  %132 = select i1 %123, i64 %131, i64 0
  %133 = add i64 %125, %53
  br label %gl.chunk15

done13:                                           ; preds = %gl.row11
  br label %st.row19

gl.chunk15:                                       ; preds = %body16, %body12
  %i18 = phi i64 [ 0, %body12 ], [ %150, %body16 ]
  %134 = icmp slt i64 %i18, 4
  br i1 %134, label %body16, label %done17

body16:                                           ; preds = %gl.chunk15
  %135 = mul i64 %i18, 16
  %136 = insertelement <16 x i64> undef, i64 %135, i32 0
  %137 = shufflevector <16 x i64> %136, <16 x i64> undef, <16 x i32> zeroinitializer
  %138 = insertelement <16 x i64> undef, i64 %128, i32 0
  %139 = shufflevector <16 x i64> %138, <16 x i64> undef, <16 x i32> zeroinitializer
  %140 = insertelement <16 x i64> undef, i64 %132, i32 0
  %141 = shufflevector <16 x i64> %140, <16 x i64> undef, <16 x i32> zeroinitializer
  %142 = add <16 x i64> %137, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %143 = icmp slt <16 x i64> %142, %141
  %144 = icmp sge <16 x i64> %142, %139
  %145 = and <16 x i1> %144, %143
  %146 = add i64 %133, %135
  %147 = getelementptr float, ptr %Y, i64 %146
  %148 = getelementptr float, ptr %tile10, i64 %135
  %149 = call <16 x float> @llvm.masked.load.v16f32.p0(ptr align 4 %147, <16 x i1> %145, <16 x float> zeroinitializer)
  store <16 x float> %149, ptr %148, align 4
  %150 = add i64 %i18, 1
  br label %gl.chunk15

done17:                                           ; preds = %gl.chunk15
  %151 = add i64 %i14, 1
  br label %gl.row11

st.row19:                                         ; preds = %done25, %done13
  %i22 = phi i64 [ 0, %done13 ], [ %180, %done25 ]
  %152 = icmp slt i64 %i22, 1
  br i1 %152, label %body20, label %done21

body20:                                           ; preds = %st.row19
  %153 = add i64 0, %i22
  %154 = icmp slt i64 %153, 1
  %155 = icmp sge i64 %153, 0
  %156 = and i1 %155, %154
  %157 = and i1 true, %156
  %158 = add i64 0, %153
  %159 = mul i64 %158, %14
  %160 = sub i64 0, %20
  %161 = icmp sgt i64 %160, 0
  %162 = select i1 %161, i64 %160, i64 0
  %163 = sub i64 %14, %20
  %164 = icmp slt i64 %163, 64
  %165 = select i1 %164, i64 %163, i64 64
  %166 = select i1 %157, i64 %165, i64 0
  %167 = sub i64 %166, %162
  br label %st.col23

done21:                                           ; preds = %st.row19
  br label %fuse.done

st.col23:                                         ; preds = %body24, %body20
  %i26 = phi i64 [ 0, %body20 ], [ %179, %body24 ]
  %168 = icmp slt i64 %i26, %167
  br i1 %168, label %body24, label %done25

body24:                                           ; preds = %st.col23
  %169 = add i64 %i26, %162
  %170 = getelementptr float, ptr %tile10, i64 %169
  %171 = load float, ptr %170, align 4
  %172 = getelementptr float, ptr %tile, i64 %169
  %173 = load float, ptr %172, align 4
  %174 = fmul float %173, %8
  %175 = fadd float %174, %171
  %176 = add i64 %20, %169
  %177 = add i64 %159, %176
  %178 = getelementptr float, ptr %Y, i64 %177
  store float %175, ptr %178, align 4
  %179 = add i64 %i26, 1
  br label %st.col23

done25:                                           ; preds = %st.col23
  %180 = add i64 %i22, 1
  br label %st.row19
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare <16 x float> @llvm.masked.load.v16f32.p0(ptr captures(none), <16 x i1>, <16 x float>) #0

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
