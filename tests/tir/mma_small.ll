; ModuleID = 'mma_small.tk'
source_filename = "mma_small.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @mm__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %5, align 8
  %6 = getelementptr i64, ptr %1, i64 0
  %7 = load i64, ptr %6, align 8
  %M = trunc i64 %7 to i32
  %8 = getelementptr i64, ptr %1, i64 1
  %9 = load i64, ptr %8, align 8
  %K = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 2
  %11 = load i64, ptr %10, align 8
  %N = trunc i64 %11 to i32
  %12 = sdiv i32 %N, 16
  %13 = srem i32 %N, 16
  %14 = icmp sgt i32 %N, 0
  %15 = icmp ne i32 %13, 0
  %16 = and i1 %15, %14
  %17 = zext i1 %16 to i32
  %18 = add i32 %12, %17
  %19 = select i1 true, i32 %18, i32 0
  %20 = sext i32 %19 to i64
  %21 = getelementptr i64, ptr %2, i64 0
  store i64 %20, ptr %21, align 8
  %22 = sdiv i32 %M, 16
  %23 = srem i32 %M, 16
  %24 = icmp sgt i32 %M, 0
  %25 = icmp ne i32 %23, 0
  %26 = and i1 %25, %24
  %27 = zext i1 %26 to i32
  %28 = add i32 %22, %27
  %29 = select i1 true, i32 %28, i32 0
  %30 = sext i32 %29 to i64
  %31 = getelementptr i64, ptr %2, i64 1
  store i64 %30, ptr %31, align 8
  %32 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %32, align 8
  ret void
}

define void @mm__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %acc = alloca [256 x float], align 64
  %tile = alloca [256 x float], align 64
  %a = alloca [256 x i16], align 64
  %tile1 = alloca [256 x i16], align 64
  %b = alloca [256 x i16], align 64
  %tile8 = alloca [256 x i16], align 64
  %mma.b = alloca [256 x float], align 64
  %mma.a = alloca [256 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %7, align 8
  %8 = getelementptr i64, ptr %1, i64 0
  %9 = load i64, ptr %8, align 8
  %M = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 1
  %11 = load i64, ptr %10, align 8
  %K = trunc i64 %11 to i32
  %12 = getelementptr i64, ptr %1, i64 2
  %13 = load i64, ptr %12, align 8
  %N = trunc i64 %13 to i32
  call void @llvm.memset.p0.i64(ptr align 64 %acc, i8 0, i64 1024, i1 false)
  br label %fill

fill:                                             ; preds = %body, %start
  %i = phi i64 [ 0, %start ], [ %16, %body ]
  %14 = icmp slt i64 %i, 256
  br i1 %14, label %body, label %done

body:                                             ; preds = %fill
  %15 = getelementptr float, ptr %tile, i64 %i
  store float 0.000000e+00, ptr %15, align 4
  %16 = add i64 %i, 1
  br label %fill

done:                                             ; preds = %fill
  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %acc, ptr align 64 %tile, i64 1024, i1 false)
  call void @llvm.memset.p0.i64(ptr align 64 %a, i8 0, i64 512, i1 false)
  %17 = getelementptr i64, ptr %1, i64 0
  %18 = load i64, ptr %17, align 8
  %19 = mul i64 1, %18
  %20 = add i64 0, %19
  %21 = getelementptr i64, ptr %1, i64 1
  %22 = load i64, ptr %21, align 8
  %23 = mul i64 1, %22
  %24 = add i64 0, %23
  %25 = sext i32 %3 to i64
  %26 = icmp slt i64 %25, 1099511627776
  %27 = select i1 %26, i64 %25, i64 1099511627776
  %28 = icmp sgt i64 %27, -1099511627776
  %29 = select i1 %28, i64 %27, i64 -1099511627776
  %30 = mul i64 %29, 16
  call void @llvm.memset.p0.i64(ptr align 64 %tile1, i8 0, i64 512, i1 false)
  br label %gl.row

gl.row:                                           ; preds = %done6, %done
  %i4 = phi i64 [ 0, %done ], [ %69, %done6 ]
  %31 = icmp slt i64 %i4, 16
  br i1 %31, label %body2, label %done3

body2:                                            ; preds = %gl.row
  %32 = add i64 %30, %i4
  %33 = icmp slt i64 %32, %20
  %34 = icmp sge i64 %32, 0
  %35 = and i1 %34, %33
  %36 = and i1 true, %35
  %37 = mul i64 0, %20
  %38 = add i64 %37, %32
  %39 = mul i64 %38, %24
  %40 = sub i64 %24, 0
  %41 = icmp slt i64 %40, 16
  %42 = select i1 %41, i64 %40, i64 16
  %43 = select i1 %36, i64 %42, i64 0
  %44 = sub i64 %43, 0
  br label %gl.col

done3:                                            ; preds = %gl.row
  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %a, ptr align 64 %tile1, i64 512, i1 false)
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  %45 = getelementptr i64, ptr %1, i64 1
  %46 = load i64, ptr %45, align 8
  %47 = mul i64 1, %46
  %48 = add i64 0, %47
  %49 = getelementptr i64, ptr %1, i64 2
  %50 = load i64, ptr %49, align 8
  %51 = mul i64 1, %50
  %52 = add i64 0, %51
  %53 = sext i32 %2 to i64
  %54 = icmp slt i64 %53, 1099511627776
  %55 = select i1 %54, i64 %53, i64 1099511627776
  %56 = icmp sgt i64 %55, -1099511627776
  %57 = select i1 %56, i64 %55, i64 -1099511627776
  %58 = mul i64 %57, 16
  call void @llvm.memset.p0.i64(ptr align 64 %tile8, i8 0, i64 512, i1 false)
  br label %gl.row9

gl.col:                                           ; preds = %body5, %body2
  %i7 = phi i64 [ 0, %body2 ], [ %68, %body5 ]
  %59 = icmp slt i64 %i7, %44
  br i1 %59, label %body5, label %done6

body5:                                            ; preds = %gl.col
  %60 = add i64 %i7, 0
  %61 = mul i64 %i4, 16
  %62 = add i64 %61, %60
  %63 = add i64 0, %60
  %64 = add i64 %39, %63
  %65 = getelementptr i16, ptr %A, i64 %64
  %66 = load i16, ptr %65, align 2
  %67 = getelementptr i16, ptr %tile1, i64 %62
  store i16 %66, ptr %67, align 2
  %68 = add i64 %i7, 1
  br label %gl.col

done6:                                            ; preds = %gl.col
  %69 = add i64 %i4, 1
  br label %gl.row

gl.row9:                                          ; preds = %done15, %done3
  %i12 = phi i64 [ 0, %done3 ], [ %97, %done15 ]
  %70 = icmp slt i64 %i12, 16
  br i1 %70, label %body10, label %done11

body10:                                           ; preds = %gl.row9
  %71 = add i64 0, %i12
  %72 = icmp slt i64 %71, %48
  %73 = icmp sge i64 %71, 0
  %74 = and i1 %73, %72
  %75 = and i1 true, %74
  %76 = mul i64 0, %48
  %77 = add i64 %76, %71
  %78 = mul i64 %77, %52
  %79 = sub i64 0, %58
  %80 = icmp sgt i64 %79, 0
  %81 = select i1 %80, i64 %79, i64 0
  %82 = sub i64 %52, %58
  %83 = icmp slt i64 %82, 16
  %84 = select i1 %83, i64 %82, i64 16
  %85 = select i1 %75, i64 %84, i64 0
  %86 = sub i64 %85, %81
  br label %gl.col13

done11:                                           ; preds = %gl.row9
  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %b, ptr align 64 %tile8, i64 512, i1 false)
  br label %pack.a

gl.col13:                                         ; preds = %body14, %body10
  %i16 = phi i64 [ 0, %body10 ], [ %96, %body14 ]
  %87 = icmp slt i64 %i16, %86
  br i1 %87, label %body14, label %done15

body14:                                           ; preds = %gl.col13
  %88 = add i64 %i16, %81
  %89 = mul i64 %88, 16
  %90 = add i64 %89, %i12
  %91 = add i64 %58, %88
  %92 = add i64 %78, %91
  %93 = getelementptr i16, ptr %B, i64 %92
  %94 = load i16, ptr %93, align 2
  %95 = getelementptr i16, ptr %tile8, i64 %90
  store i16 %94, ptr %95, align 2
  %96 = add i64 %i16, 1
  br label %gl.col13

done15:                                           ; preds = %gl.col13
  %97 = add i64 %i12, 1
  br label %gl.row9

pack.a:                                           ; preds = %done21, %done11
  %i19 = phi i64 [ 0, %done11 ], [ %111, %done21 ]
  %98 = icmp slt i64 %i19, 16
  br i1 %98, label %body17, label %done18

body17:                                           ; preds = %pack.a
  br label %pack.ak

done18:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body20, %body17
  %i22 = phi i64 [ 0, %body17 ], [ %110, %body20 ]
  %99 = icmp slt i64 %i22, 16
  br i1 %99, label %body20, label %done21

body20:                                           ; preds = %pack.ak
  %100 = mul i64 %i19, 16
  %101 = add i64 %100, %i22
  %102 = mul i64 %i19, 16
  %103 = add i64 %102, %i22
  %104 = getelementptr i16, ptr %a, i64 %101
  %105 = load i16, ptr %104, align 2
  %106 = zext i16 %105 to i32
  %107 = shl i32 %106, 16
  %108 = bitcast i32 %107 to float
  %109 = getelementptr float, ptr %mma.a, i64 %103
  store float %108, ptr %109, align 4
  %110 = add i64 %i22, 1
  br label %pack.ak

done21:                                           ; preds = %pack.ak
  %111 = add i64 %i19, 1
  br label %pack.a

pack.b:                                           ; preds = %done27, %done18
  %i25 = phi i64 [ 0, %done18 ], [ %125, %done27 ]
  %112 = icmp slt i64 %i25, 16
  br i1 %112, label %body23, label %done24

body23:                                           ; preds = %pack.b
  br label %pack.bn

done24:                                           ; preds = %pack.b
  br label %mk.i

pack.bn:                                          ; preds = %body26, %body23
  %i28 = phi i64 [ 0, %body23 ], [ %124, %body26 ]
  %113 = icmp slt i64 %i28, 16
  br i1 %113, label %body26, label %done27

body26:                                           ; preds = %pack.bn
  %114 = mul i64 %i28, 16
  %115 = add i64 %114, %i25
  %116 = mul i64 %i25, 16
  %117 = add i64 %116, %i28
  %118 = getelementptr i16, ptr %b, i64 %115
  %119 = load i16, ptr %118, align 2
  %120 = zext i16 %119 to i32
  %121 = shl i32 %120, 16
  %122 = bitcast i32 %121 to float
  %123 = getelementptr float, ptr %mma.b, i64 %117
  store float %122, ptr %123, align 4
  %124 = add i64 %i28, 1
  br label %pack.bn

done27:                                           ; preds = %pack.bn
  %125 = add i64 %i25, 1
  br label %pack.b

mk.i:                                             ; preds = %mk.done30, %done24
  %126 = phi i64 [ 0, %done24 ], [ %198, %mk.done30 ]
  %127 = icmp slt i64 %126, 16
  br i1 %127, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.i
  br label %mk.j

mk.done:                                          ; preds = %mk.i
  %128 = getelementptr i64, ptr %1, i64 0
  %129 = load i64, ptr %128, align 8
  %130 = mul i64 1, %129
  %131 = add i64 0, %130
  %132 = getelementptr i64, ptr %1, i64 2
  %133 = load i64, ptr %132, align 8
  %134 = mul i64 1, %133
  %135 = add i64 0, %134
  %136 = sext i32 %3 to i64
  %137 = icmp slt i64 %136, 1099511627776
  %138 = select i1 %137, i64 %136, i64 1099511627776
  %139 = icmp sgt i64 %138, -1099511627776
  %140 = select i1 %139, i64 %138, i64 -1099511627776
  %141 = mul i64 %140, 16
  %142 = sext i32 %2 to i64
  %143 = icmp slt i64 %142, 1099511627776
  %144 = select i1 %143, i64 %142, i64 1099511627776
  %145 = icmp sgt i64 %144, -1099511627776
  %146 = select i1 %145, i64 %144, i64 -1099511627776
  %147 = mul i64 %146, 16
  br label %gl.row39

mk.j:                                             ; preds = %mk.kdone, %mk.body
  %148 = phi i64 [ 0, %mk.body ], [ %289, %mk.kdone ]
  %149 = icmp slt i64 %148, 16
  br i1 %149, label %mk.body29, label %mk.done30

mk.body29:                                        ; preds = %mk.j
  %150 = add i64 %148, 0
  %151 = add i64 %126, 0
  %152 = mul i64 %151, 16
  %153 = add i64 %152, %150
  %154 = getelementptr float, ptr %acc, i64 %153
  %155 = load <8 x float>, ptr %154, align 4
  %156 = add i64 %148, 8
  %157 = add i64 %126, 0
  %158 = mul i64 %157, 16
  %159 = add i64 %158, %156
  %160 = getelementptr float, ptr %acc, i64 %159
  %161 = load <8 x float>, ptr %160, align 4
  %162 = add i64 %148, 0
  %163 = add i64 %126, 1
  %164 = mul i64 %163, 16
  %165 = add i64 %164, %162
  %166 = getelementptr float, ptr %acc, i64 %165
  %167 = load <8 x float>, ptr %166, align 4
  %168 = add i64 %148, 8
  %169 = add i64 %126, 1
  %170 = mul i64 %169, 16
  %171 = add i64 %170, %168
  %172 = getelementptr float, ptr %acc, i64 %171
  %173 = load <8 x float>, ptr %172, align 4
  %174 = add i64 %148, 0
  %175 = add i64 %126, 2
  %176 = mul i64 %175, 16
  %177 = add i64 %176, %174
  %178 = getelementptr float, ptr %acc, i64 %177
  %179 = load <8 x float>, ptr %178, align 4
  %180 = add i64 %148, 8
  %181 = add i64 %126, 2
  %182 = mul i64 %181, 16
  %183 = add i64 %182, %180
  %184 = getelementptr float, ptr %acc, i64 %183
  %185 = load <8 x float>, ptr %184, align 4
  %186 = add i64 %148, 0
  %187 = add i64 %126, 3
  %188 = mul i64 %187, 16
  %189 = add i64 %188, %186
  %190 = getelementptr float, ptr %acc, i64 %189
  %191 = load <8 x float>, ptr %190, align 4
  %192 = add i64 %148, 8
  %193 = add i64 %126, 3
  %194 = mul i64 %193, 16
  %195 = add i64 %194, %192
  %196 = getelementptr float, ptr %acc, i64 %195
  %197 = load <8 x float>, ptr %196, align 4
  br label %mk.k

mk.done30:                                        ; preds = %mk.j
  %198 = add i64 %126, 4
  br label %mk.i

mk.k:                                             ; preds = %mk.kbody, %mk.body29
  %k = phi i64 [ 0, %mk.body29 ], [ %248, %mk.kbody ]
  %acc31 = phi <8 x float> [ %155, %mk.body29 ], [ %219, %mk.kbody ]
  %acc32 = phi <8 x float> [ %161, %mk.body29 ], [ %220, %mk.kbody ]
  %acc33 = phi <8 x float> [ %167, %mk.body29 ], [ %228, %mk.kbody ]
  %acc34 = phi <8 x float> [ %173, %mk.body29 ], [ %229, %mk.kbody ]
  %acc35 = phi <8 x float> [ %179, %mk.body29 ], [ %237, %mk.kbody ]
  %acc36 = phi <8 x float> [ %185, %mk.body29 ], [ %238, %mk.kbody ]
  %acc37 = phi <8 x float> [ %191, %mk.body29 ], [ %246, %mk.kbody ]
  %acc38 = phi <8 x float> [ %197, %mk.body29 ], [ %247, %mk.kbody ]
  %199 = icmp slt i64 %k, 16
  br i1 %199, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %200 = add i64 %148, 0
  %201 = mul i64 %200, 1
  %202 = mul i64 %k, 16
  %203 = add i64 %202, %201
  %204 = getelementptr float, ptr %mma.b, i64 %203
  %205 = load <8 x float>, ptr %204, align 4
  %206 = add i64 %148, 8
  %207 = mul i64 %206, 1
  %208 = mul i64 %k, 16
  %209 = add i64 %208, %207
  %210 = getelementptr float, ptr %mma.b, i64 %209
  %211 = load <8 x float>, ptr %210, align 4
  %212 = add i64 %126, 0
  %213 = mul i64 %212, 16
  %214 = add i64 %213, %k
  %215 = getelementptr float, ptr %mma.a, i64 %214
  %216 = load float, ptr %215, align 4
  %217 = insertelement <8 x float> poison, float %216, i32 0
  %218 = shufflevector <8 x float> %217, <8 x float> poison, <8 x i32> zeroinitializer
  %219 = call <8 x float> @llvm.fma.v8f32(<8 x float> %218, <8 x float> %205, <8 x float> %acc31)
  %220 = call <8 x float> @llvm.fma.v8f32(<8 x float> %218, <8 x float> %211, <8 x float> %acc32)
  %221 = add i64 %126, 1
  %222 = mul i64 %221, 16
  %223 = add i64 %222, %k
  %224 = getelementptr float, ptr %mma.a, i64 %223
  %225 = load float, ptr %224, align 4
  %226 = insertelement <8 x float> poison, float %225, i32 0
  %227 = shufflevector <8 x float> %226, <8 x float> poison, <8 x i32> zeroinitializer
  %228 = call <8 x float> @llvm.fma.v8f32(<8 x float> %227, <8 x float> %205, <8 x float> %acc33)
  %229 = call <8 x float> @llvm.fma.v8f32(<8 x float> %227, <8 x float> %211, <8 x float> %acc34)
  %230 = add i64 %126, 2
  %231 = mul i64 %230, 16
  %232 = add i64 %231, %k
  %233 = getelementptr float, ptr %mma.a, i64 %232
  %234 = load float, ptr %233, align 4
  %235 = insertelement <8 x float> poison, float %234, i32 0
  %236 = shufflevector <8 x float> %235, <8 x float> poison, <8 x i32> zeroinitializer
  %237 = call <8 x float> @llvm.fma.v8f32(<8 x float> %236, <8 x float> %205, <8 x float> %acc35)
  %238 = call <8 x float> @llvm.fma.v8f32(<8 x float> %236, <8 x float> %211, <8 x float> %acc36)
  %239 = add i64 %126, 3
  %240 = mul i64 %239, 16
  %241 = add i64 %240, %k
  %242 = getelementptr float, ptr %mma.a, i64 %241
  %243 = load float, ptr %242, align 4
  %244 = insertelement <8 x float> poison, float %243, i32 0
  %245 = shufflevector <8 x float> %244, <8 x float> poison, <8 x i32> zeroinitializer
  %246 = call <8 x float> @llvm.fma.v8f32(<8 x float> %245, <8 x float> %205, <8 x float> %acc37)
  %247 = call <8 x float> @llvm.fma.v8f32(<8 x float> %245, <8 x float> %211, <8 x float> %acc38)
  %248 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %249 = add i64 %148, 0
  %250 = add i64 %126, 0
  %251 = mul i64 %250, 16
  %252 = add i64 %251, %249
  %253 = getelementptr float, ptr %acc, i64 %252
  store <8 x float> %acc31, ptr %253, align 4
  %254 = add i64 %148, 8
  %255 = add i64 %126, 0
  %256 = mul i64 %255, 16
  %257 = add i64 %256, %254
  %258 = getelementptr float, ptr %acc, i64 %257
  store <8 x float> %acc32, ptr %258, align 4
  %259 = add i64 %148, 0
  %260 = add i64 %126, 1
  %261 = mul i64 %260, 16
  %262 = add i64 %261, %259
  %263 = getelementptr float, ptr %acc, i64 %262
  store <8 x float> %acc33, ptr %263, align 4
  %264 = add i64 %148, 8
  %265 = add i64 %126, 1
  %266 = mul i64 %265, 16
  %267 = add i64 %266, %264
  %268 = getelementptr float, ptr %acc, i64 %267
  store <8 x float> %acc34, ptr %268, align 4
  %269 = add i64 %148, 0
  %270 = add i64 %126, 2
  %271 = mul i64 %270, 16
  %272 = add i64 %271, %269
  %273 = getelementptr float, ptr %acc, i64 %272
  store <8 x float> %acc35, ptr %273, align 4
  %274 = add i64 %148, 8
  %275 = add i64 %126, 2
  %276 = mul i64 %275, 16
  %277 = add i64 %276, %274
  %278 = getelementptr float, ptr %acc, i64 %277
  store <8 x float> %acc36, ptr %278, align 4
  %279 = add i64 %148, 0
  %280 = add i64 %126, 3
  %281 = mul i64 %280, 16
  %282 = add i64 %281, %279
  %283 = getelementptr float, ptr %acc, i64 %282
  store <8 x float> %acc37, ptr %283, align 4
  %284 = add i64 %148, 8
  %285 = add i64 %126, 3
  %286 = mul i64 %285, 16
  %287 = add i64 %286, %284
  %288 = getelementptr float, ptr %acc, i64 %287
  store <8 x float> %acc38, ptr %288, align 4
  %289 = add i64 %148, 16
  br label %mk.j

gl.row39:                                         ; preds = %done45, %mk.done
  %i42 = phi i64 [ 0, %mk.done ], [ %317, %done45 ]
  %290 = icmp slt i64 %i42, 16
  br i1 %290, label %body40, label %done41

body40:                                           ; preds = %gl.row39
  %291 = add i64 %141, %i42
  %292 = icmp slt i64 %291, %131
  %293 = icmp sge i64 %291, 0
  %294 = and i1 %293, %292
  %295 = and i1 true, %294
  %296 = mul i64 0, %131
  %297 = add i64 %296, %291
  %298 = mul i64 %297, %135
  %299 = sub i64 0, %147
  %300 = icmp sgt i64 %299, 0
  %301 = select i1 %300, i64 %299, i64 0
  %302 = sub i64 %135, %147
  %303 = icmp slt i64 %302, 16
  %304 = select i1 %303, i64 %302, i64 16
  %305 = select i1 %295, i64 %304, i64 0
  %306 = sub i64 %305, %301
  br label %gl.col43

done41:                                           ; preds = %gl.row39
  ret void

gl.col43:                                         ; preds = %body44, %body40
  %i46 = phi i64 [ 0, %body40 ], [ %316, %body44 ]
  %307 = icmp slt i64 %i46, %306
  br i1 %307, label %body44, label %done45

body44:                                           ; preds = %gl.col43
  %308 = add i64 %i46, %301
  %309 = mul i64 %i42, 16
  %310 = add i64 %309, %308
  %311 = add i64 %147, %308
  %312 = add i64 %298, %311
  %313 = getelementptr float, ptr %acc, i64 %310
  %314 = load float, ptr %313, align 4
  %315 = getelementptr float, ptr %C, i64 %312
  store float %314, ptr %315, align 4
  %316 = add i64 %i46, 1
  br label %gl.col43

done45:                                           ; preds = %gl.col43
  %317 = add i64 %i42, 1
  br label %gl.row39
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #2

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
