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
  %33 = getelementptr i64, ptr %2, i64 3
  store i64 266765, ptr %33, align 8
  ret void
}

define void @mm__block(ptr noalias %0, ptr noalias %1, i32 %2, i32 %3, i32 %4) {
entry:
  %mk.bbad = alloca i32, i64 1, align 4
  %mk.first = alloca i64, i64 1, align 8
  %mk.all = alloca i32, i64 1, align 4
  %mk.any = alloca i32, i64 1, align 4
  %mk.orv = alloca i32, i64 1, align 4
  %mk.skip = alloca i8, i64 8, align 1
  %acc.at = alloca [1 x ptr], align 64
  %acc.stride = alloca [1 x i64], align 64
  %acc = alloca [256 x float], align 64
  %acc.zero = alloca [1 x i8], align 64
  %a = alloca [256 x i16], align 64
  %b = alloca [256 x i16], align 64
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
  %14 = getelementptr i64, ptr %1, i64 0
  %15 = load i64, ptr %14, align 8
  %16 = mul i64 1, %15
  %17 = add i64 0, %16
  %18 = getelementptr i64, ptr %1, i64 2
  %19 = load i64, ptr %18, align 8
  %20 = mul i64 1, %19
  %21 = add i64 0, %20
  %22 = sext i32 %3 to i64
  %23 = icmp slt i64 %22, 1099511627776
  %24 = select i1 %23, i64 %22, i64 1099511627776
  %25 = icmp sgt i64 %24, -1099511627776
  %26 = select i1 %25, i64 %24, i64 -1099511627776
  %27 = mul i64 %26, 16
  %28 = sext i32 %2 to i64
  %29 = icmp slt i64 %28, 1099511627776
  %30 = select i1 %29, i64 %28, i64 1099511627776
  %31 = icmp sgt i64 %30, -1099511627776
  %32 = select i1 %31, i64 %30, i64 -1099511627776
  %33 = mul i64 %32, 16
  %34 = mul i64 0, %17
  %35 = add i64 %34, %27
  %36 = mul i64 %35, %21
  %37 = add i64 %36, %33
  %38 = icmp sge i64 %27, 0
  %39 = and i1 true, %38
  %40 = icmp sge i64 %33, 0
  %41 = and i1 %39, %40
  %42 = add i64 %27, 16
  %43 = add i64 %33, 16
  %44 = icmp sle i64 %42, %17
  %45 = and i1 %41, %44
  %46 = icmp sle i64 %43, %21
  %47 = and i1 %45, %46
  %48 = getelementptr i64, ptr %1, i64 0
  %49 = load i64, ptr %48, align 8
  %50 = mul i64 1, %49
  %51 = add i64 0, %50
  %52 = mul i64 4, %51
  %53 = getelementptr i64, ptr %1, i64 2
  %54 = load i64, ptr %53, align 8
  %55 = mul i64 1, %54
  %56 = add i64 0, %55
  %57 = mul i64 %52, %56
  %58 = getelementptr ptr, ptr %0, i64 0
  %59 = load ptr, ptr %58, align 8
  %60 = getelementptr i64, ptr %1, i64 0
  %61 = load i64, ptr %60, align 8
  %62 = mul i64 1, %61
  %63 = add i64 0, %62
  %64 = mul i64 2, %63
  %65 = getelementptr i64, ptr %1, i64 1
  %66 = load i64, ptr %65, align 8
  %67 = mul i64 1, %66
  %68 = add i64 0, %67
  %69 = mul i64 %64, %68
  %70 = ptrtoint ptr %C to i64
  %71 = ptrtoint ptr %59 to i64
  %72 = add i64 %70, %57
  %73 = add i64 %71, %69
  %74 = icmp ule i64 %73, %70
  %75 = icmp ule i64 %72, %71
  %76 = or i1 %75, %74
  %77 = and i1 %47, %76
  %78 = getelementptr ptr, ptr %0, i64 1
  %79 = load ptr, ptr %78, align 8
  %80 = getelementptr i64, ptr %1, i64 1
  %81 = load i64, ptr %80, align 8
  %82 = mul i64 1, %81
  %83 = add i64 0, %82
  %84 = mul i64 2, %83
  %85 = getelementptr i64, ptr %1, i64 2
  %86 = load i64, ptr %85, align 8
  %87 = mul i64 1, %86
  %88 = add i64 0, %87
  %89 = mul i64 %84, %88
  %90 = ptrtoint ptr %C to i64
  %91 = ptrtoint ptr %79 to i64
  %92 = add i64 %90, %57
  %93 = add i64 %91, %89
  %94 = icmp ule i64 %93, %90
  %95 = icmp ule i64 %92, %91
  %96 = or i1 %95, %94
  %97 = and i1 %77, %96
  %acc.inc = getelementptr float, ptr %C, i64 %37
  %98 = select i1 %97, ptr %acc.inc, ptr %acc
  %99 = getelementptr i64, ptr %1, i64 2
  %100 = load i64, ptr %99, align 8
  %101 = mul i64 1, %100
  %102 = add i64 0, %101
  %103 = select i1 %97, i64 %102, i64 16
  store ptr %98, ptr %acc.at, align 8
  store i64 %103, ptr %acc.stride, align 8
  store i8 1, ptr %acc.zero, align 1
  %104 = getelementptr i64, ptr %1, i64 0
  %105 = load i64, ptr %104, align 8
  %106 = mul i64 1, %105
  %107 = add i64 0, %106
  %108 = getelementptr i64, ptr %1, i64 1
  %109 = load i64, ptr %108, align 8
  %110 = mul i64 1, %109
  %111 = add i64 0, %110
  %112 = sext i32 %3 to i64
  %113 = icmp slt i64 %112, 1099511627776
  %114 = select i1 %113, i64 %112, i64 1099511627776
  %115 = icmp sgt i64 %114, -1099511627776
  %116 = select i1 %115, i64 %114, i64 -1099511627776
  %117 = mul i64 %116, 16
  %118 = icmp sge i64 %117, 0
  %119 = and i1 true, %118
  %120 = and i1 %119, true
  %121 = add i64 %117, 16
  %122 = icmp sle i64 %121, %107
  %123 = and i1 %120, %122
  %124 = icmp sle i64 16, %111
  %125 = and i1 %123, %124
  br i1 %125, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %start
  %126 = mul i64 0, %107
  %127 = add i64 %126, %117
  br label %in.row

gl.edge:                                          ; preds = %start
  br label %gl.row

gl.done:                                          ; preds = %done2, %done
  %128 = getelementptr i64, ptr %1, i64 1
  %129 = load i64, ptr %128, align 8
  %130 = mul i64 1, %129
  %131 = add i64 0, %130
  %132 = getelementptr i64, ptr %1, i64 2
  %133 = load i64, ptr %132, align 8
  %134 = mul i64 1, %133
  %135 = add i64 0, %134
  %136 = sext i32 %2 to i64
  %137 = icmp slt i64 %136, 1099511627776
  %138 = select i1 %137, i64 %136, i64 1099511627776
  %139 = icmp sgt i64 %138, -1099511627776
  %140 = select i1 %139, i64 %138, i64 -1099511627776
  %141 = mul i64 %140, 16
  %142 = icmp sge i64 %141, 0
  %143 = and i1 true, %142
  %144 = add i64 %141, 16
  %145 = icmp sle i64 16, %131
  %146 = and i1 %143, %145
  %147 = icmp sle i64 %144, %135
  %148 = and i1 %146, %147
  br i1 %148, label %gl.inside7, label %gl.edge8

in.row:                                           ; preds = %body, %gl.inside
  %i = phi i64 [ 0, %gl.inside ], [ %159, %body ]
  %149 = icmp slt i64 %i, 16
  br i1 %149, label %body, label %done

body:                                             ; preds = %in.row
  %150 = add i64 %127, %i
  %151 = mul i64 %150, %111
  %152 = add i64 %151, 0
  %153 = mul i64 %i, 16
  %154 = add i64 %153, 0
  %155 = add i64 %152, 0
  %156 = getelementptr i16, ptr %A, i64 %155
  %157 = getelementptr i16, ptr %a, i64 %154
  %158 = load <16 x i16>, ptr %156, align 2
  store <16 x i16> %158, ptr %157, align 2
  %159 = add i64 %i, 1
  br label %in.row

done:                                             ; preds = %in.row
  br label %gl.done

gl.row:                                           ; preds = %done5, %gl.edge
  %i3 = phi i64 [ 0, %gl.edge ], [ %191, %done5 ]
  %160 = icmp slt i64 %i3, 16
  br i1 %160, label %body1, label %done2

body1:                                            ; preds = %gl.row
  %161 = add i64 %117, %i3
  %162 = icmp sgt i64 %107, 0
  %163 = select i1 %162, i64 %107, i64 0
  %164 = icmp ult i64 %161, %163
  %165 = and i1 true, %164
  %166 = mul i64 0, %107
  %167 = add i64 %166, %161
  %168 = mul i64 %167, %111
  %169 = sub i64 %111, 0
  %170 = icmp slt i64 %169, 16
  %171 = select i1 %170, i64 %169, i64 16
  %172 = select i1 %165, i64 %171, i64 0
  %173 = add i64 %168, 0
  br label %gl.chunk

done2:                                            ; preds = %gl.row
  br label %gl.done

gl.chunk:                                         ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %190, %body4 ]
  %174 = icmp slt i64 %i6, 1
  br i1 %174, label %body4, label %done5

body4:                                            ; preds = %gl.chunk
  %175 = mul i64 %i6, 16
  %176 = insertelement <16 x i64> undef, i64 %175, i32 0
  %177 = shufflevector <16 x i64> %176, <16 x i64> undef, <16 x i32> zeroinitializer
  %178 = insertelement <16 x i64> undef, i64 %172, i32 0
  %179 = shufflevector <16 x i64> %178, <16 x i64> undef, <16 x i32> zeroinitializer
  %180 = add <16 x i64> %177, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %181 = icmp slt <16 x i64> %180, %179
  %182 = icmp sge <16 x i64> %180, zeroinitializer
  %183 = and <16 x i1> %182, %181
  %184 = add i64 %173, %175
  %185 = getelementptr i16, ptr %A, i64 %184
  %186 = mul i64 %i3, 16
  %187 = add i64 %186, %175
  %188 = getelementptr i16, ptr %a, i64 %187
  %189 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %185, <16 x i1> %183, <16 x i16> zeroinitializer)
  store <16 x i16> %189, ptr %188, align 2
  %190 = add i64 %i6, 1
  br label %gl.chunk

done5:                                            ; preds = %gl.chunk
  %191 = add i64 %i3, 1
  br label %gl.row

gl.inside7:                                       ; preds = %gl.done
  %192 = mul i64 0, %131
  %193 = add i64 %192, 0
  %194 = mul i64 %193, %135
  %195 = add i64 %194, %141
  br label %tx.s

gl.edge8:                                         ; preds = %gl.done
  br label %gl.ts

gl.done9:                                         ; preds = %done17, %done11
  %196 = load i64, ptr %acc.stride, align 8
  %197 = load ptr, ptr %acc.at, align 8
  %198 = load i8, ptr %acc.zero, align 1
  %199 = icmp ne i8 %198, 0
  br label %pack.a

tx.s:                                             ; preds = %done14, %gl.inside7
  %i12 = phi i64 [ 0, %gl.inside7 ], [ %445, %done14 ]
  %200 = icmp slt i64 %i12, 1
  br i1 %200, label %body10, label %done11

body10:                                           ; preds = %tx.s
  br label %tx.t

done11:                                           ; preds = %tx.s
  br label %gl.done9

tx.t:                                             ; preds = %body13, %body10
  %i15 = phi i64 [ 0, %body10 ], [ %444, %body13 ]
  %201 = icmp slt i64 %i15, 1
  br i1 %201, label %body13, label %done14

body13:                                           ; preds = %tx.t
  %202 = shl i64 %i12, 4
  %203 = shl i64 %i15, 4
  %204 = add i64 %202, 0
  %205 = mul i64 %204, %135
  %206 = add i64 %195, %205
  %207 = add i64 %206, %203
  %208 = getelementptr i16, ptr %B, i64 %207
  %209 = load <16 x i16>, ptr %208, align 2
  %210 = add i64 %202, 1
  %211 = mul i64 %210, %135
  %212 = add i64 %195, %211
  %213 = add i64 %212, %203
  %214 = getelementptr i16, ptr %B, i64 %213
  %215 = load <16 x i16>, ptr %214, align 2
  %216 = add i64 %202, 2
  %217 = mul i64 %216, %135
  %218 = add i64 %195, %217
  %219 = add i64 %218, %203
  %220 = getelementptr i16, ptr %B, i64 %219
  %221 = load <16 x i16>, ptr %220, align 2
  %222 = add i64 %202, 3
  %223 = mul i64 %222, %135
  %224 = add i64 %195, %223
  %225 = add i64 %224, %203
  %226 = getelementptr i16, ptr %B, i64 %225
  %227 = load <16 x i16>, ptr %226, align 2
  %228 = add i64 %202, 4
  %229 = mul i64 %228, %135
  %230 = add i64 %195, %229
  %231 = add i64 %230, %203
  %232 = getelementptr i16, ptr %B, i64 %231
  %233 = load <16 x i16>, ptr %232, align 2
  %234 = add i64 %202, 5
  %235 = mul i64 %234, %135
  %236 = add i64 %195, %235
  %237 = add i64 %236, %203
  %238 = getelementptr i16, ptr %B, i64 %237
  %239 = load <16 x i16>, ptr %238, align 2
  %240 = add i64 %202, 6
  %241 = mul i64 %240, %135
  %242 = add i64 %195, %241
  %243 = add i64 %242, %203
  %244 = getelementptr i16, ptr %B, i64 %243
  %245 = load <16 x i16>, ptr %244, align 2
  %246 = add i64 %202, 7
  %247 = mul i64 %246, %135
  %248 = add i64 %195, %247
  %249 = add i64 %248, %203
  %250 = getelementptr i16, ptr %B, i64 %249
  %251 = load <16 x i16>, ptr %250, align 2
  %252 = add i64 %202, 8
  %253 = mul i64 %252, %135
  %254 = add i64 %195, %253
  %255 = add i64 %254, %203
  %256 = getelementptr i16, ptr %B, i64 %255
  %257 = load <16 x i16>, ptr %256, align 2
  %258 = add i64 %202, 9
  %259 = mul i64 %258, %135
  %260 = add i64 %195, %259
  %261 = add i64 %260, %203
  %262 = getelementptr i16, ptr %B, i64 %261
  %263 = load <16 x i16>, ptr %262, align 2
  %264 = add i64 %202, 10
  %265 = mul i64 %264, %135
  %266 = add i64 %195, %265
  %267 = add i64 %266, %203
  %268 = getelementptr i16, ptr %B, i64 %267
  %269 = load <16 x i16>, ptr %268, align 2
  %270 = add i64 %202, 11
  %271 = mul i64 %270, %135
  %272 = add i64 %195, %271
  %273 = add i64 %272, %203
  %274 = getelementptr i16, ptr %B, i64 %273
  %275 = load <16 x i16>, ptr %274, align 2
  %276 = add i64 %202, 12
  %277 = mul i64 %276, %135
  %278 = add i64 %195, %277
  %279 = add i64 %278, %203
  %280 = getelementptr i16, ptr %B, i64 %279
  %281 = load <16 x i16>, ptr %280, align 2
  %282 = add i64 %202, 13
  %283 = mul i64 %282, %135
  %284 = add i64 %195, %283
  %285 = add i64 %284, %203
  %286 = getelementptr i16, ptr %B, i64 %285
  %287 = load <16 x i16>, ptr %286, align 2
  %288 = add i64 %202, 14
  %289 = mul i64 %288, %135
  %290 = add i64 %195, %289
  %291 = add i64 %290, %203
  %292 = getelementptr i16, ptr %B, i64 %291
  %293 = load <16 x i16>, ptr %292, align 2
  %294 = add i64 %202, 15
  %295 = mul i64 %294, %135
  %296 = add i64 %195, %295
  %297 = add i64 %296, %203
  %298 = getelementptr i16, ptr %B, i64 %297
  %299 = load <16 x i16>, ptr %298, align 2
  %300 = shufflevector <16 x i16> %209, <16 x i16> %257, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %301 = shufflevector <16 x i16> %209, <16 x i16> %257, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %302 = shufflevector <16 x i16> %215, <16 x i16> %263, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %303 = shufflevector <16 x i16> %215, <16 x i16> %263, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %304 = shufflevector <16 x i16> %221, <16 x i16> %269, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %305 = shufflevector <16 x i16> %221, <16 x i16> %269, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %306 = shufflevector <16 x i16> %227, <16 x i16> %275, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %307 = shufflevector <16 x i16> %227, <16 x i16> %275, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %308 = shufflevector <16 x i16> %233, <16 x i16> %281, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %309 = shufflevector <16 x i16> %233, <16 x i16> %281, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %310 = shufflevector <16 x i16> %239, <16 x i16> %287, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %311 = shufflevector <16 x i16> %239, <16 x i16> %287, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %312 = shufflevector <16 x i16> %245, <16 x i16> %293, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %313 = shufflevector <16 x i16> %245, <16 x i16> %293, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %314 = shufflevector <16 x i16> %251, <16 x i16> %299, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %315 = shufflevector <16 x i16> %251, <16 x i16> %299, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %316 = shufflevector <16 x i16> %300, <16 x i16> %308, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %317 = shufflevector <16 x i16> %300, <16 x i16> %308, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %318 = shufflevector <16 x i16> %301, <16 x i16> %309, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %319 = shufflevector <16 x i16> %301, <16 x i16> %309, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %320 = shufflevector <16 x i16> %302, <16 x i16> %310, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %321 = shufflevector <16 x i16> %302, <16 x i16> %310, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %322 = shufflevector <16 x i16> %303, <16 x i16> %311, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %323 = shufflevector <16 x i16> %303, <16 x i16> %311, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %324 = shufflevector <16 x i16> %304, <16 x i16> %312, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %325 = shufflevector <16 x i16> %304, <16 x i16> %312, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %326 = shufflevector <16 x i16> %305, <16 x i16> %313, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %327 = shufflevector <16 x i16> %305, <16 x i16> %313, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %328 = shufflevector <16 x i16> %306, <16 x i16> %314, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %329 = shufflevector <16 x i16> %306, <16 x i16> %314, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %330 = shufflevector <16 x i16> %307, <16 x i16> %315, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %331 = shufflevector <16 x i16> %307, <16 x i16> %315, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %332 = shufflevector <16 x i16> %316, <16 x i16> %324, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %333 = shufflevector <16 x i16> %316, <16 x i16> %324, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %334 = shufflevector <16 x i16> %317, <16 x i16> %325, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %335 = shufflevector <16 x i16> %317, <16 x i16> %325, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %336 = shufflevector <16 x i16> %318, <16 x i16> %326, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %337 = shufflevector <16 x i16> %318, <16 x i16> %326, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %338 = shufflevector <16 x i16> %319, <16 x i16> %327, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %339 = shufflevector <16 x i16> %319, <16 x i16> %327, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %340 = shufflevector <16 x i16> %320, <16 x i16> %328, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %341 = shufflevector <16 x i16> %320, <16 x i16> %328, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %342 = shufflevector <16 x i16> %321, <16 x i16> %329, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %343 = shufflevector <16 x i16> %321, <16 x i16> %329, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %344 = shufflevector <16 x i16> %322, <16 x i16> %330, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %345 = shufflevector <16 x i16> %322, <16 x i16> %330, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %346 = shufflevector <16 x i16> %323, <16 x i16> %331, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %347 = shufflevector <16 x i16> %323, <16 x i16> %331, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %348 = shufflevector <16 x i16> %332, <16 x i16> %340, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %349 = shufflevector <16 x i16> %332, <16 x i16> %340, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %350 = shufflevector <16 x i16> %333, <16 x i16> %341, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %351 = shufflevector <16 x i16> %333, <16 x i16> %341, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %352 = shufflevector <16 x i16> %334, <16 x i16> %342, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %353 = shufflevector <16 x i16> %334, <16 x i16> %342, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %354 = shufflevector <16 x i16> %335, <16 x i16> %343, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %355 = shufflevector <16 x i16> %335, <16 x i16> %343, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %356 = shufflevector <16 x i16> %336, <16 x i16> %344, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %357 = shufflevector <16 x i16> %336, <16 x i16> %344, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %358 = shufflevector <16 x i16> %337, <16 x i16> %345, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %359 = shufflevector <16 x i16> %337, <16 x i16> %345, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %360 = shufflevector <16 x i16> %338, <16 x i16> %346, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %361 = shufflevector <16 x i16> %338, <16 x i16> %346, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %362 = shufflevector <16 x i16> %339, <16 x i16> %347, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %363 = shufflevector <16 x i16> %339, <16 x i16> %347, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %364 = add i64 %203, 0
  %365 = mul i64 %364, 16
  %366 = add i64 0, %365
  %367 = add i64 %366, %202
  %368 = getelementptr i16, ptr %b, i64 %367
  store <16 x i16> %348, ptr %368, align 2
  %369 = add i64 %203, 1
  %370 = mul i64 %369, 16
  %371 = add i64 0, %370
  %372 = add i64 %371, %202
  %373 = getelementptr i16, ptr %b, i64 %372
  store <16 x i16> %349, ptr %373, align 2
  %374 = add i64 %203, 2
  %375 = mul i64 %374, 16
  %376 = add i64 0, %375
  %377 = add i64 %376, %202
  %378 = getelementptr i16, ptr %b, i64 %377
  store <16 x i16> %350, ptr %378, align 2
  %379 = add i64 %203, 3
  %380 = mul i64 %379, 16
  %381 = add i64 0, %380
  %382 = add i64 %381, %202
  %383 = getelementptr i16, ptr %b, i64 %382
  store <16 x i16> %351, ptr %383, align 2
  %384 = add i64 %203, 4
  %385 = mul i64 %384, 16
  %386 = add i64 0, %385
  %387 = add i64 %386, %202
  %388 = getelementptr i16, ptr %b, i64 %387
  store <16 x i16> %352, ptr %388, align 2
  %389 = add i64 %203, 5
  %390 = mul i64 %389, 16
  %391 = add i64 0, %390
  %392 = add i64 %391, %202
  %393 = getelementptr i16, ptr %b, i64 %392
  store <16 x i16> %353, ptr %393, align 2
  %394 = add i64 %203, 6
  %395 = mul i64 %394, 16
  %396 = add i64 0, %395
  %397 = add i64 %396, %202
  %398 = getelementptr i16, ptr %b, i64 %397
  store <16 x i16> %354, ptr %398, align 2
  %399 = add i64 %203, 7
  %400 = mul i64 %399, 16
  %401 = add i64 0, %400
  %402 = add i64 %401, %202
  %403 = getelementptr i16, ptr %b, i64 %402
  store <16 x i16> %355, ptr %403, align 2
  %404 = add i64 %203, 8
  %405 = mul i64 %404, 16
  %406 = add i64 0, %405
  %407 = add i64 %406, %202
  %408 = getelementptr i16, ptr %b, i64 %407
  store <16 x i16> %356, ptr %408, align 2
  %409 = add i64 %203, 9
  %410 = mul i64 %409, 16
  %411 = add i64 0, %410
  %412 = add i64 %411, %202
  %413 = getelementptr i16, ptr %b, i64 %412
  store <16 x i16> %357, ptr %413, align 2
  %414 = add i64 %203, 10
  %415 = mul i64 %414, 16
  %416 = add i64 0, %415
  %417 = add i64 %416, %202
  %418 = getelementptr i16, ptr %b, i64 %417
  store <16 x i16> %358, ptr %418, align 2
  %419 = add i64 %203, 11
  %420 = mul i64 %419, 16
  %421 = add i64 0, %420
  %422 = add i64 %421, %202
  %423 = getelementptr i16, ptr %b, i64 %422
  store <16 x i16> %359, ptr %423, align 2
  %424 = add i64 %203, 12
  %425 = mul i64 %424, 16
  %426 = add i64 0, %425
  %427 = add i64 %426, %202
  %428 = getelementptr i16, ptr %b, i64 %427
  store <16 x i16> %360, ptr %428, align 2
  %429 = add i64 %203, 13
  %430 = mul i64 %429, 16
  %431 = add i64 0, %430
  %432 = add i64 %431, %202
  %433 = getelementptr i16, ptr %b, i64 %432
  store <16 x i16> %361, ptr %433, align 2
  %434 = add i64 %203, 14
  %435 = mul i64 %434, 16
  %436 = add i64 0, %435
  %437 = add i64 %436, %202
  %438 = getelementptr i16, ptr %b, i64 %437
  store <16 x i16> %362, ptr %438, align 2
  %439 = add i64 %203, 15
  %440 = mul i64 %439, 16
  %441 = add i64 0, %440
  %442 = add i64 %441, %202
  %443 = getelementptr i16, ptr %b, i64 %442
  store <16 x i16> %363, ptr %443, align 2
  %444 = add i64 %i15, 1
  br label %tx.t

done14:                                           ; preds = %tx.t
  %445 = add i64 %i12, 1
  br label %tx.s

gl.ts:                                            ; preds = %done20, %gl.edge8
  %i18 = phi i64 [ 0, %gl.edge8 ], [ %1075, %done20 ]
  %446 = icmp slt i64 %i18, 1
  br i1 %446, label %body16, label %done17

body16:                                           ; preds = %gl.ts
  br label %gl.tt

done17:                                           ; preds = %gl.ts
  br label %gl.done9

gl.tt:                                            ; preds = %body19, %body16
  %i21 = phi i64 [ 0, %body16 ], [ %1074, %body19 ]
  %447 = icmp slt i64 %i21, 1
  br i1 %447, label %body19, label %done20

body19:                                           ; preds = %gl.tt
  %448 = shl i64 %i18, 4
  %449 = shl i64 %i21, 4
  %450 = add i64 %448, 0
  %451 = add i64 0, %450
  %452 = icmp sgt i64 %131, 0
  %453 = select i1 %452, i64 %131, i64 0
  %454 = icmp ult i64 %451, %453
  %455 = and i1 true, %454
  %456 = mul i64 0, %131
  %457 = add i64 %456, %451
  %458 = mul i64 %457, %135
  %459 = sub i64 0, %141
  %460 = icmp sgt i64 %459, 0
  %461 = select i1 %460, i64 %459, i64 0
  %462 = sub i64 %135, %141
  %463 = icmp slt i64 %462, 16
  %464 = select i1 %463, i64 %462, i64 16
  %465 = select i1 %455, i64 %464, i64 0
  %466 = add i64 %458, %141
  %467 = add i64 %466, %449
  %468 = getelementptr i16, ptr %B, i64 %467
  %469 = insertelement <16 x i64> undef, i64 %449, i32 0
  %470 = shufflevector <16 x i64> %469, <16 x i64> undef, <16 x i32> zeroinitializer
  %471 = insertelement <16 x i64> undef, i64 %461, i32 0
  %472 = shufflevector <16 x i64> %471, <16 x i64> undef, <16 x i32> zeroinitializer
  %473 = insertelement <16 x i64> undef, i64 %465, i32 0
  %474 = shufflevector <16 x i64> %473, <16 x i64> undef, <16 x i32> zeroinitializer
  %475 = add <16 x i64> %470, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %476 = icmp slt <16 x i64> %475, %474
  %477 = icmp sge <16 x i64> %475, %472
  %478 = and <16 x i1> %477, %476
  %479 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %468, <16 x i1> %478, <16 x i16> zeroinitializer)
  %480 = add i64 %448, 1
  %481 = add i64 0, %480
  %482 = icmp sgt i64 %131, 0
  %483 = select i1 %482, i64 %131, i64 0
  %484 = icmp ult i64 %481, %483
  %485 = and i1 true, %484
  %486 = mul i64 0, %131
  %487 = add i64 %486, %481
  %488 = mul i64 %487, %135
  %489 = sub i64 0, %141
  %490 = icmp sgt i64 %489, 0
  %491 = select i1 %490, i64 %489, i64 0
  %492 = sub i64 %135, %141
  %493 = icmp slt i64 %492, 16
  %494 = select i1 %493, i64 %492, i64 16
  %495 = select i1 %485, i64 %494, i64 0
  %496 = add i64 %488, %141
  %497 = add i64 %496, %449
  %498 = getelementptr i16, ptr %B, i64 %497
  %499 = insertelement <16 x i64> undef, i64 %449, i32 0
  %500 = shufflevector <16 x i64> %499, <16 x i64> undef, <16 x i32> zeroinitializer
  %501 = insertelement <16 x i64> undef, i64 %491, i32 0
  %502 = shufflevector <16 x i64> %501, <16 x i64> undef, <16 x i32> zeroinitializer
  %503 = insertelement <16 x i64> undef, i64 %495, i32 0
  %504 = shufflevector <16 x i64> %503, <16 x i64> undef, <16 x i32> zeroinitializer
  %505 = add <16 x i64> %500, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %506 = icmp slt <16 x i64> %505, %504
  %507 = icmp sge <16 x i64> %505, %502
  %508 = and <16 x i1> %507, %506
  %509 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %498, <16 x i1> %508, <16 x i16> zeroinitializer)
  %510 = add i64 %448, 2
  %511 = add i64 0, %510
  %512 = icmp sgt i64 %131, 0
  %513 = select i1 %512, i64 %131, i64 0
  %514 = icmp ult i64 %511, %513
  %515 = and i1 true, %514
  %516 = mul i64 0, %131
  %517 = add i64 %516, %511
  %518 = mul i64 %517, %135
  %519 = sub i64 0, %141
  %520 = icmp sgt i64 %519, 0
  %521 = select i1 %520, i64 %519, i64 0
  %522 = sub i64 %135, %141
  %523 = icmp slt i64 %522, 16
  %524 = select i1 %523, i64 %522, i64 16
  %525 = select i1 %515, i64 %524, i64 0
  %526 = add i64 %518, %141
  %527 = add i64 %526, %449
  %528 = getelementptr i16, ptr %B, i64 %527
  %529 = insertelement <16 x i64> undef, i64 %449, i32 0
  %530 = shufflevector <16 x i64> %529, <16 x i64> undef, <16 x i32> zeroinitializer
  %531 = insertelement <16 x i64> undef, i64 %521, i32 0
  %532 = shufflevector <16 x i64> %531, <16 x i64> undef, <16 x i32> zeroinitializer
  %533 = insertelement <16 x i64> undef, i64 %525, i32 0
  %534 = shufflevector <16 x i64> %533, <16 x i64> undef, <16 x i32> zeroinitializer
  %535 = add <16 x i64> %530, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %536 = icmp slt <16 x i64> %535, %534
  %537 = icmp sge <16 x i64> %535, %532
  %538 = and <16 x i1> %537, %536
  %539 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %528, <16 x i1> %538, <16 x i16> zeroinitializer)
  %540 = add i64 %448, 3
  %541 = add i64 0, %540
  %542 = icmp sgt i64 %131, 0
  %543 = select i1 %542, i64 %131, i64 0
  %544 = icmp ult i64 %541, %543
  %545 = and i1 true, %544
  %546 = mul i64 0, %131
  %547 = add i64 %546, %541
  %548 = mul i64 %547, %135
  %549 = sub i64 0, %141
  %550 = icmp sgt i64 %549, 0
  %551 = select i1 %550, i64 %549, i64 0
  %552 = sub i64 %135, %141
  %553 = icmp slt i64 %552, 16
  %554 = select i1 %553, i64 %552, i64 16
  %555 = select i1 %545, i64 %554, i64 0
  %556 = add i64 %548, %141
  %557 = add i64 %556, %449
  %558 = getelementptr i16, ptr %B, i64 %557
  %559 = insertelement <16 x i64> undef, i64 %449, i32 0
  %560 = shufflevector <16 x i64> %559, <16 x i64> undef, <16 x i32> zeroinitializer
  %561 = insertelement <16 x i64> undef, i64 %551, i32 0
  %562 = shufflevector <16 x i64> %561, <16 x i64> undef, <16 x i32> zeroinitializer
  %563 = insertelement <16 x i64> undef, i64 %555, i32 0
  %564 = shufflevector <16 x i64> %563, <16 x i64> undef, <16 x i32> zeroinitializer
  %565 = add <16 x i64> %560, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %566 = icmp slt <16 x i64> %565, %564
  %567 = icmp sge <16 x i64> %565, %562
  %568 = and <16 x i1> %567, %566
  %569 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %558, <16 x i1> %568, <16 x i16> zeroinitializer)
  %570 = add i64 %448, 4
  %571 = add i64 0, %570
  %572 = icmp sgt i64 %131, 0
  %573 = select i1 %572, i64 %131, i64 0
  %574 = icmp ult i64 %571, %573
  %575 = and i1 true, %574
  %576 = mul i64 0, %131
  %577 = add i64 %576, %571
  %578 = mul i64 %577, %135
  %579 = sub i64 0, %141
  %580 = icmp sgt i64 %579, 0
  %581 = select i1 %580, i64 %579, i64 0
  %582 = sub i64 %135, %141
  %583 = icmp slt i64 %582, 16
  %584 = select i1 %583, i64 %582, i64 16
  %585 = select i1 %575, i64 %584, i64 0
  %586 = add i64 %578, %141
  %587 = add i64 %586, %449
  %588 = getelementptr i16, ptr %B, i64 %587
  %589 = insertelement <16 x i64> undef, i64 %449, i32 0
  %590 = shufflevector <16 x i64> %589, <16 x i64> undef, <16 x i32> zeroinitializer
  %591 = insertelement <16 x i64> undef, i64 %581, i32 0
  %592 = shufflevector <16 x i64> %591, <16 x i64> undef, <16 x i32> zeroinitializer
  %593 = insertelement <16 x i64> undef, i64 %585, i32 0
  %594 = shufflevector <16 x i64> %593, <16 x i64> undef, <16 x i32> zeroinitializer
  %595 = add <16 x i64> %590, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %596 = icmp slt <16 x i64> %595, %594
  %597 = icmp sge <16 x i64> %595, %592
  %598 = and <16 x i1> %597, %596
  %599 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %588, <16 x i1> %598, <16 x i16> zeroinitializer)
  %600 = add i64 %448, 5
  %601 = add i64 0, %600
  %602 = icmp sgt i64 %131, 0
  %603 = select i1 %602, i64 %131, i64 0
  %604 = icmp ult i64 %601, %603
  %605 = and i1 true, %604
  %606 = mul i64 0, %131
  %607 = add i64 %606, %601
  %608 = mul i64 %607, %135
  %609 = sub i64 0, %141
  %610 = icmp sgt i64 %609, 0
  %611 = select i1 %610, i64 %609, i64 0
  %612 = sub i64 %135, %141
  %613 = icmp slt i64 %612, 16
  %614 = select i1 %613, i64 %612, i64 16
  %615 = select i1 %605, i64 %614, i64 0
  %616 = add i64 %608, %141
  %617 = add i64 %616, %449
  %618 = getelementptr i16, ptr %B, i64 %617
  %619 = insertelement <16 x i64> undef, i64 %449, i32 0
  %620 = shufflevector <16 x i64> %619, <16 x i64> undef, <16 x i32> zeroinitializer
  %621 = insertelement <16 x i64> undef, i64 %611, i32 0
  %622 = shufflevector <16 x i64> %621, <16 x i64> undef, <16 x i32> zeroinitializer
  %623 = insertelement <16 x i64> undef, i64 %615, i32 0
  %624 = shufflevector <16 x i64> %623, <16 x i64> undef, <16 x i32> zeroinitializer
  %625 = add <16 x i64> %620, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %626 = icmp slt <16 x i64> %625, %624
  %627 = icmp sge <16 x i64> %625, %622
  %628 = and <16 x i1> %627, %626
  %629 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %618, <16 x i1> %628, <16 x i16> zeroinitializer)
  %630 = add i64 %448, 6
  %631 = add i64 0, %630
  %632 = icmp sgt i64 %131, 0
  %633 = select i1 %632, i64 %131, i64 0
  %634 = icmp ult i64 %631, %633
  %635 = and i1 true, %634
  %636 = mul i64 0, %131
  %637 = add i64 %636, %631
  %638 = mul i64 %637, %135
  %639 = sub i64 0, %141
  %640 = icmp sgt i64 %639, 0
  %641 = select i1 %640, i64 %639, i64 0
  %642 = sub i64 %135, %141
  %643 = icmp slt i64 %642, 16
  %644 = select i1 %643, i64 %642, i64 16
  %645 = select i1 %635, i64 %644, i64 0
  %646 = add i64 %638, %141
  %647 = add i64 %646, %449
  %648 = getelementptr i16, ptr %B, i64 %647
  %649 = insertelement <16 x i64> undef, i64 %449, i32 0
  %650 = shufflevector <16 x i64> %649, <16 x i64> undef, <16 x i32> zeroinitializer
  %651 = insertelement <16 x i64> undef, i64 %641, i32 0
  %652 = shufflevector <16 x i64> %651, <16 x i64> undef, <16 x i32> zeroinitializer
  %653 = insertelement <16 x i64> undef, i64 %645, i32 0
  %654 = shufflevector <16 x i64> %653, <16 x i64> undef, <16 x i32> zeroinitializer
  %655 = add <16 x i64> %650, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %656 = icmp slt <16 x i64> %655, %654
  %657 = icmp sge <16 x i64> %655, %652
  %658 = and <16 x i1> %657, %656
  %659 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %648, <16 x i1> %658, <16 x i16> zeroinitializer)
  %660 = add i64 %448, 7
  %661 = add i64 0, %660
  %662 = icmp sgt i64 %131, 0
  %663 = select i1 %662, i64 %131, i64 0
  %664 = icmp ult i64 %661, %663
  %665 = and i1 true, %664
  %666 = mul i64 0, %131
  %667 = add i64 %666, %661
  %668 = mul i64 %667, %135
  %669 = sub i64 0, %141
  %670 = icmp sgt i64 %669, 0
  %671 = select i1 %670, i64 %669, i64 0
  %672 = sub i64 %135, %141
  %673 = icmp slt i64 %672, 16
  %674 = select i1 %673, i64 %672, i64 16
  %675 = select i1 %665, i64 %674, i64 0
  %676 = add i64 %668, %141
  %677 = add i64 %676, %449
  %678 = getelementptr i16, ptr %B, i64 %677
  %679 = insertelement <16 x i64> undef, i64 %449, i32 0
  %680 = shufflevector <16 x i64> %679, <16 x i64> undef, <16 x i32> zeroinitializer
  %681 = insertelement <16 x i64> undef, i64 %671, i32 0
  %682 = shufflevector <16 x i64> %681, <16 x i64> undef, <16 x i32> zeroinitializer
  %683 = insertelement <16 x i64> undef, i64 %675, i32 0
  %684 = shufflevector <16 x i64> %683, <16 x i64> undef, <16 x i32> zeroinitializer
  %685 = add <16 x i64> %680, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %686 = icmp slt <16 x i64> %685, %684
  %687 = icmp sge <16 x i64> %685, %682
  %688 = and <16 x i1> %687, %686
  %689 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %678, <16 x i1> %688, <16 x i16> zeroinitializer)
  %690 = add i64 %448, 8
  %691 = add i64 0, %690
  %692 = icmp sgt i64 %131, 0
  %693 = select i1 %692, i64 %131, i64 0
  %694 = icmp ult i64 %691, %693
  %695 = and i1 true, %694
  %696 = mul i64 0, %131
  %697 = add i64 %696, %691
  %698 = mul i64 %697, %135
  %699 = sub i64 0, %141
  %700 = icmp sgt i64 %699, 0
  %701 = select i1 %700, i64 %699, i64 0
  %702 = sub i64 %135, %141
  %703 = icmp slt i64 %702, 16
  %704 = select i1 %703, i64 %702, i64 16
  %705 = select i1 %695, i64 %704, i64 0
  %706 = add i64 %698, %141
  %707 = add i64 %706, %449
  %708 = getelementptr i16, ptr %B, i64 %707
  %709 = insertelement <16 x i64> undef, i64 %449, i32 0
  %710 = shufflevector <16 x i64> %709, <16 x i64> undef, <16 x i32> zeroinitializer
  %711 = insertelement <16 x i64> undef, i64 %701, i32 0
  %712 = shufflevector <16 x i64> %711, <16 x i64> undef, <16 x i32> zeroinitializer
  %713 = insertelement <16 x i64> undef, i64 %705, i32 0
  %714 = shufflevector <16 x i64> %713, <16 x i64> undef, <16 x i32> zeroinitializer
  %715 = add <16 x i64> %710, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %716 = icmp slt <16 x i64> %715, %714
  %717 = icmp sge <16 x i64> %715, %712
  %718 = and <16 x i1> %717, %716
  %719 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %708, <16 x i1> %718, <16 x i16> zeroinitializer)
  %720 = add i64 %448, 9
  %721 = add i64 0, %720
  %722 = icmp sgt i64 %131, 0
  %723 = select i1 %722, i64 %131, i64 0
  %724 = icmp ult i64 %721, %723
  %725 = and i1 true, %724
  %726 = mul i64 0, %131
  %727 = add i64 %726, %721
  %728 = mul i64 %727, %135
  %729 = sub i64 0, %141
  %730 = icmp sgt i64 %729, 0
  %731 = select i1 %730, i64 %729, i64 0
  %732 = sub i64 %135, %141
  %733 = icmp slt i64 %732, 16
  %734 = select i1 %733, i64 %732, i64 16
  %735 = select i1 %725, i64 %734, i64 0
  %736 = add i64 %728, %141
  %737 = add i64 %736, %449
  %738 = getelementptr i16, ptr %B, i64 %737
  %739 = insertelement <16 x i64> undef, i64 %449, i32 0
  %740 = shufflevector <16 x i64> %739, <16 x i64> undef, <16 x i32> zeroinitializer
  %741 = insertelement <16 x i64> undef, i64 %731, i32 0
  %742 = shufflevector <16 x i64> %741, <16 x i64> undef, <16 x i32> zeroinitializer
  %743 = insertelement <16 x i64> undef, i64 %735, i32 0
  %744 = shufflevector <16 x i64> %743, <16 x i64> undef, <16 x i32> zeroinitializer
  %745 = add <16 x i64> %740, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %746 = icmp slt <16 x i64> %745, %744
  %747 = icmp sge <16 x i64> %745, %742
  %748 = and <16 x i1> %747, %746
  %749 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %738, <16 x i1> %748, <16 x i16> zeroinitializer)
  %750 = add i64 %448, 10
  %751 = add i64 0, %750
  %752 = icmp sgt i64 %131, 0
  %753 = select i1 %752, i64 %131, i64 0
  %754 = icmp ult i64 %751, %753
  %755 = and i1 true, %754
  %756 = mul i64 0, %131
  %757 = add i64 %756, %751
  %758 = mul i64 %757, %135
  %759 = sub i64 0, %141
  %760 = icmp sgt i64 %759, 0
  %761 = select i1 %760, i64 %759, i64 0
  %762 = sub i64 %135, %141
  %763 = icmp slt i64 %762, 16
  %764 = select i1 %763, i64 %762, i64 16
  %765 = select i1 %755, i64 %764, i64 0
  %766 = add i64 %758, %141
  %767 = add i64 %766, %449
  %768 = getelementptr i16, ptr %B, i64 %767
  %769 = insertelement <16 x i64> undef, i64 %449, i32 0
  %770 = shufflevector <16 x i64> %769, <16 x i64> undef, <16 x i32> zeroinitializer
  %771 = insertelement <16 x i64> undef, i64 %761, i32 0
  %772 = shufflevector <16 x i64> %771, <16 x i64> undef, <16 x i32> zeroinitializer
  %773 = insertelement <16 x i64> undef, i64 %765, i32 0
  %774 = shufflevector <16 x i64> %773, <16 x i64> undef, <16 x i32> zeroinitializer
  %775 = add <16 x i64> %770, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %776 = icmp slt <16 x i64> %775, %774
  %777 = icmp sge <16 x i64> %775, %772
  %778 = and <16 x i1> %777, %776
  %779 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %768, <16 x i1> %778, <16 x i16> zeroinitializer)
  %780 = add i64 %448, 11
  %781 = add i64 0, %780
  %782 = icmp sgt i64 %131, 0
  %783 = select i1 %782, i64 %131, i64 0
  %784 = icmp ult i64 %781, %783
  %785 = and i1 true, %784
  %786 = mul i64 0, %131
  %787 = add i64 %786, %781
  %788 = mul i64 %787, %135
  %789 = sub i64 0, %141
  %790 = icmp sgt i64 %789, 0
  %791 = select i1 %790, i64 %789, i64 0
  %792 = sub i64 %135, %141
  %793 = icmp slt i64 %792, 16
  %794 = select i1 %793, i64 %792, i64 16
  %795 = select i1 %785, i64 %794, i64 0
  %796 = add i64 %788, %141
  %797 = add i64 %796, %449
  %798 = getelementptr i16, ptr %B, i64 %797
  %799 = insertelement <16 x i64> undef, i64 %449, i32 0
  %800 = shufflevector <16 x i64> %799, <16 x i64> undef, <16 x i32> zeroinitializer
  %801 = insertelement <16 x i64> undef, i64 %791, i32 0
  %802 = shufflevector <16 x i64> %801, <16 x i64> undef, <16 x i32> zeroinitializer
  %803 = insertelement <16 x i64> undef, i64 %795, i32 0
  %804 = shufflevector <16 x i64> %803, <16 x i64> undef, <16 x i32> zeroinitializer
  %805 = add <16 x i64> %800, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %806 = icmp slt <16 x i64> %805, %804
  %807 = icmp sge <16 x i64> %805, %802
  %808 = and <16 x i1> %807, %806
  %809 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %798, <16 x i1> %808, <16 x i16> zeroinitializer)
  %810 = add i64 %448, 12
  %811 = add i64 0, %810
  %812 = icmp sgt i64 %131, 0
  %813 = select i1 %812, i64 %131, i64 0
  %814 = icmp ult i64 %811, %813
  %815 = and i1 true, %814
  %816 = mul i64 0, %131
  %817 = add i64 %816, %811
  %818 = mul i64 %817, %135
  %819 = sub i64 0, %141
  %820 = icmp sgt i64 %819, 0
  %821 = select i1 %820, i64 %819, i64 0
  %822 = sub i64 %135, %141
  %823 = icmp slt i64 %822, 16
  %824 = select i1 %823, i64 %822, i64 16
  %825 = select i1 %815, i64 %824, i64 0
  %826 = add i64 %818, %141
  %827 = add i64 %826, %449
  %828 = getelementptr i16, ptr %B, i64 %827
  %829 = insertelement <16 x i64> undef, i64 %449, i32 0
  %830 = shufflevector <16 x i64> %829, <16 x i64> undef, <16 x i32> zeroinitializer
  %831 = insertelement <16 x i64> undef, i64 %821, i32 0
  %832 = shufflevector <16 x i64> %831, <16 x i64> undef, <16 x i32> zeroinitializer
  %833 = insertelement <16 x i64> undef, i64 %825, i32 0
  %834 = shufflevector <16 x i64> %833, <16 x i64> undef, <16 x i32> zeroinitializer
  %835 = add <16 x i64> %830, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %836 = icmp slt <16 x i64> %835, %834
  %837 = icmp sge <16 x i64> %835, %832
  %838 = and <16 x i1> %837, %836
  %839 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %828, <16 x i1> %838, <16 x i16> zeroinitializer)
  %840 = add i64 %448, 13
  %841 = add i64 0, %840
  %842 = icmp sgt i64 %131, 0
  %843 = select i1 %842, i64 %131, i64 0
  %844 = icmp ult i64 %841, %843
  %845 = and i1 true, %844
  %846 = mul i64 0, %131
  %847 = add i64 %846, %841
  %848 = mul i64 %847, %135
  %849 = sub i64 0, %141
  %850 = icmp sgt i64 %849, 0
  %851 = select i1 %850, i64 %849, i64 0
  %852 = sub i64 %135, %141
  %853 = icmp slt i64 %852, 16
  %854 = select i1 %853, i64 %852, i64 16
  %855 = select i1 %845, i64 %854, i64 0
  %856 = add i64 %848, %141
  %857 = add i64 %856, %449
  %858 = getelementptr i16, ptr %B, i64 %857
  %859 = insertelement <16 x i64> undef, i64 %449, i32 0
  %860 = shufflevector <16 x i64> %859, <16 x i64> undef, <16 x i32> zeroinitializer
  %861 = insertelement <16 x i64> undef, i64 %851, i32 0
  %862 = shufflevector <16 x i64> %861, <16 x i64> undef, <16 x i32> zeroinitializer
  %863 = insertelement <16 x i64> undef, i64 %855, i32 0
  %864 = shufflevector <16 x i64> %863, <16 x i64> undef, <16 x i32> zeroinitializer
  %865 = add <16 x i64> %860, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %866 = icmp slt <16 x i64> %865, %864
  %867 = icmp sge <16 x i64> %865, %862
  %868 = and <16 x i1> %867, %866
  %869 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %858, <16 x i1> %868, <16 x i16> zeroinitializer)
  %870 = add i64 %448, 14
  %871 = add i64 0, %870
  %872 = icmp sgt i64 %131, 0
  %873 = select i1 %872, i64 %131, i64 0
  %874 = icmp ult i64 %871, %873
  %875 = and i1 true, %874
  %876 = mul i64 0, %131
  %877 = add i64 %876, %871
  %878 = mul i64 %877, %135
  %879 = sub i64 0, %141
  %880 = icmp sgt i64 %879, 0
  %881 = select i1 %880, i64 %879, i64 0
  %882 = sub i64 %135, %141
  %883 = icmp slt i64 %882, 16
  %884 = select i1 %883, i64 %882, i64 16
  %885 = select i1 %875, i64 %884, i64 0
  %886 = add i64 %878, %141
  %887 = add i64 %886, %449
  %888 = getelementptr i16, ptr %B, i64 %887
  %889 = insertelement <16 x i64> undef, i64 %449, i32 0
  %890 = shufflevector <16 x i64> %889, <16 x i64> undef, <16 x i32> zeroinitializer
  %891 = insertelement <16 x i64> undef, i64 %881, i32 0
  %892 = shufflevector <16 x i64> %891, <16 x i64> undef, <16 x i32> zeroinitializer
  %893 = insertelement <16 x i64> undef, i64 %885, i32 0
  %894 = shufflevector <16 x i64> %893, <16 x i64> undef, <16 x i32> zeroinitializer
  %895 = add <16 x i64> %890, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %896 = icmp slt <16 x i64> %895, %894
  %897 = icmp sge <16 x i64> %895, %892
  %898 = and <16 x i1> %897, %896
  %899 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %888, <16 x i1> %898, <16 x i16> zeroinitializer)
  %900 = add i64 %448, 15
  %901 = add i64 0, %900
  %902 = icmp sgt i64 %131, 0
  %903 = select i1 %902, i64 %131, i64 0
  %904 = icmp ult i64 %901, %903
  %905 = and i1 true, %904
  %906 = mul i64 0, %131
  %907 = add i64 %906, %901
  %908 = mul i64 %907, %135
  %909 = sub i64 0, %141
  %910 = icmp sgt i64 %909, 0
  %911 = select i1 %910, i64 %909, i64 0
  %912 = sub i64 %135, %141
  %913 = icmp slt i64 %912, 16
  %914 = select i1 %913, i64 %912, i64 16
  %915 = select i1 %905, i64 %914, i64 0
  %916 = add i64 %908, %141
  %917 = add i64 %916, %449
  %918 = getelementptr i16, ptr %B, i64 %917
  %919 = insertelement <16 x i64> undef, i64 %449, i32 0
  %920 = shufflevector <16 x i64> %919, <16 x i64> undef, <16 x i32> zeroinitializer
  %921 = insertelement <16 x i64> undef, i64 %911, i32 0
  %922 = shufflevector <16 x i64> %921, <16 x i64> undef, <16 x i32> zeroinitializer
  %923 = insertelement <16 x i64> undef, i64 %915, i32 0
  %924 = shufflevector <16 x i64> %923, <16 x i64> undef, <16 x i32> zeroinitializer
  %925 = add <16 x i64> %920, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %926 = icmp slt <16 x i64> %925, %924
  %927 = icmp sge <16 x i64> %925, %922
  %928 = and <16 x i1> %927, %926
  %929 = call <16 x i16> @llvm.masked.load.v16i16.p0(ptr align 2 %918, <16 x i1> %928, <16 x i16> zeroinitializer)
  %930 = shufflevector <16 x i16> %479, <16 x i16> %719, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %931 = shufflevector <16 x i16> %479, <16 x i16> %719, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %932 = shufflevector <16 x i16> %509, <16 x i16> %749, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %933 = shufflevector <16 x i16> %509, <16 x i16> %749, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %934 = shufflevector <16 x i16> %539, <16 x i16> %779, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %935 = shufflevector <16 x i16> %539, <16 x i16> %779, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %936 = shufflevector <16 x i16> %569, <16 x i16> %809, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %937 = shufflevector <16 x i16> %569, <16 x i16> %809, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %938 = shufflevector <16 x i16> %599, <16 x i16> %839, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %939 = shufflevector <16 x i16> %599, <16 x i16> %839, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %940 = shufflevector <16 x i16> %629, <16 x i16> %869, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %941 = shufflevector <16 x i16> %629, <16 x i16> %869, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %942 = shufflevector <16 x i16> %659, <16 x i16> %899, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %943 = shufflevector <16 x i16> %659, <16 x i16> %899, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %944 = shufflevector <16 x i16> %689, <16 x i16> %929, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %945 = shufflevector <16 x i16> %689, <16 x i16> %929, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %946 = shufflevector <16 x i16> %930, <16 x i16> %938, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %947 = shufflevector <16 x i16> %930, <16 x i16> %938, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %948 = shufflevector <16 x i16> %931, <16 x i16> %939, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %949 = shufflevector <16 x i16> %931, <16 x i16> %939, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %950 = shufflevector <16 x i16> %932, <16 x i16> %940, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %951 = shufflevector <16 x i16> %932, <16 x i16> %940, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %952 = shufflevector <16 x i16> %933, <16 x i16> %941, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %953 = shufflevector <16 x i16> %933, <16 x i16> %941, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %954 = shufflevector <16 x i16> %934, <16 x i16> %942, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %955 = shufflevector <16 x i16> %934, <16 x i16> %942, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %956 = shufflevector <16 x i16> %935, <16 x i16> %943, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %957 = shufflevector <16 x i16> %935, <16 x i16> %943, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %958 = shufflevector <16 x i16> %936, <16 x i16> %944, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %959 = shufflevector <16 x i16> %936, <16 x i16> %944, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %960 = shufflevector <16 x i16> %937, <16 x i16> %945, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %961 = shufflevector <16 x i16> %937, <16 x i16> %945, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %962 = shufflevector <16 x i16> %946, <16 x i16> %954, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %963 = shufflevector <16 x i16> %946, <16 x i16> %954, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %964 = shufflevector <16 x i16> %947, <16 x i16> %955, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %965 = shufflevector <16 x i16> %947, <16 x i16> %955, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %966 = shufflevector <16 x i16> %948, <16 x i16> %956, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %967 = shufflevector <16 x i16> %948, <16 x i16> %956, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %968 = shufflevector <16 x i16> %949, <16 x i16> %957, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %969 = shufflevector <16 x i16> %949, <16 x i16> %957, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %970 = shufflevector <16 x i16> %950, <16 x i16> %958, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %971 = shufflevector <16 x i16> %950, <16 x i16> %958, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %972 = shufflevector <16 x i16> %951, <16 x i16> %959, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %973 = shufflevector <16 x i16> %951, <16 x i16> %959, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %974 = shufflevector <16 x i16> %952, <16 x i16> %960, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %975 = shufflevector <16 x i16> %952, <16 x i16> %960, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %976 = shufflevector <16 x i16> %953, <16 x i16> %961, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %977 = shufflevector <16 x i16> %953, <16 x i16> %961, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %978 = shufflevector <16 x i16> %962, <16 x i16> %970, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %979 = shufflevector <16 x i16> %962, <16 x i16> %970, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %980 = shufflevector <16 x i16> %963, <16 x i16> %971, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %981 = shufflevector <16 x i16> %963, <16 x i16> %971, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %982 = shufflevector <16 x i16> %964, <16 x i16> %972, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %983 = shufflevector <16 x i16> %964, <16 x i16> %972, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %984 = shufflevector <16 x i16> %965, <16 x i16> %973, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %985 = shufflevector <16 x i16> %965, <16 x i16> %973, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %986 = shufflevector <16 x i16> %966, <16 x i16> %974, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %987 = shufflevector <16 x i16> %966, <16 x i16> %974, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %988 = shufflevector <16 x i16> %967, <16 x i16> %975, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %989 = shufflevector <16 x i16> %967, <16 x i16> %975, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %990 = shufflevector <16 x i16> %968, <16 x i16> %976, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %991 = shufflevector <16 x i16> %968, <16 x i16> %976, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %992 = shufflevector <16 x i16> %969, <16 x i16> %977, <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %993 = shufflevector <16 x i16> %969, <16 x i16> %977, <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %994 = add i64 %449, 0
  %995 = mul i64 %994, 16
  %996 = add i64 0, %995
  %997 = add i64 %996, %448
  %998 = getelementptr i16, ptr %b, i64 %997
  store <16 x i16> %978, ptr %998, align 2
  %999 = add i64 %449, 1
  %1000 = mul i64 %999, 16
  %1001 = add i64 0, %1000
  %1002 = add i64 %1001, %448
  %1003 = getelementptr i16, ptr %b, i64 %1002
  store <16 x i16> %979, ptr %1003, align 2
  %1004 = add i64 %449, 2
  %1005 = mul i64 %1004, 16
  %1006 = add i64 0, %1005
  %1007 = add i64 %1006, %448
  %1008 = getelementptr i16, ptr %b, i64 %1007
  store <16 x i16> %980, ptr %1008, align 2
  %1009 = add i64 %449, 3
  %1010 = mul i64 %1009, 16
  %1011 = add i64 0, %1010
  %1012 = add i64 %1011, %448
  %1013 = getelementptr i16, ptr %b, i64 %1012
  store <16 x i16> %981, ptr %1013, align 2
  %1014 = add i64 %449, 4
  %1015 = mul i64 %1014, 16
  %1016 = add i64 0, %1015
  %1017 = add i64 %1016, %448
  %1018 = getelementptr i16, ptr %b, i64 %1017
  store <16 x i16> %982, ptr %1018, align 2
  %1019 = add i64 %449, 5
  %1020 = mul i64 %1019, 16
  %1021 = add i64 0, %1020
  %1022 = add i64 %1021, %448
  %1023 = getelementptr i16, ptr %b, i64 %1022
  store <16 x i16> %983, ptr %1023, align 2
  %1024 = add i64 %449, 6
  %1025 = mul i64 %1024, 16
  %1026 = add i64 0, %1025
  %1027 = add i64 %1026, %448
  %1028 = getelementptr i16, ptr %b, i64 %1027
  store <16 x i16> %984, ptr %1028, align 2
  %1029 = add i64 %449, 7
  %1030 = mul i64 %1029, 16
  %1031 = add i64 0, %1030
  %1032 = add i64 %1031, %448
  %1033 = getelementptr i16, ptr %b, i64 %1032
  store <16 x i16> %985, ptr %1033, align 2
  %1034 = add i64 %449, 8
  %1035 = mul i64 %1034, 16
  %1036 = add i64 0, %1035
  %1037 = add i64 %1036, %448
  %1038 = getelementptr i16, ptr %b, i64 %1037
  store <16 x i16> %986, ptr %1038, align 2
  %1039 = add i64 %449, 9
  %1040 = mul i64 %1039, 16
  %1041 = add i64 0, %1040
  %1042 = add i64 %1041, %448
  %1043 = getelementptr i16, ptr %b, i64 %1042
  store <16 x i16> %987, ptr %1043, align 2
  %1044 = add i64 %449, 10
  %1045 = mul i64 %1044, 16
  %1046 = add i64 0, %1045
  %1047 = add i64 %1046, %448
  %1048 = getelementptr i16, ptr %b, i64 %1047
  store <16 x i16> %988, ptr %1048, align 2
  %1049 = add i64 %449, 11
  %1050 = mul i64 %1049, 16
  %1051 = add i64 0, %1050
  %1052 = add i64 %1051, %448
  %1053 = getelementptr i16, ptr %b, i64 %1052
  store <16 x i16> %989, ptr %1053, align 2
  %1054 = add i64 %449, 12
  %1055 = mul i64 %1054, 16
  %1056 = add i64 0, %1055
  %1057 = add i64 %1056, %448
  %1058 = getelementptr i16, ptr %b, i64 %1057
  store <16 x i16> %990, ptr %1058, align 2
  %1059 = add i64 %449, 13
  %1060 = mul i64 %1059, 16
  %1061 = add i64 0, %1060
  %1062 = add i64 %1061, %448
  %1063 = getelementptr i16, ptr %b, i64 %1062
  store <16 x i16> %991, ptr %1063, align 2
  %1064 = add i64 %449, 14
  %1065 = mul i64 %1064, 16
  %1066 = add i64 0, %1065
  %1067 = add i64 %1066, %448
  %1068 = getelementptr i16, ptr %b, i64 %1067
  store <16 x i16> %992, ptr %1068, align 2
  %1069 = add i64 %449, 15
  %1070 = mul i64 %1069, 16
  %1071 = add i64 0, %1070
  %1072 = add i64 %1071, %448
  %1073 = getelementptr i16, ptr %b, i64 %1072
  store <16 x i16> %993, ptr %1073, align 2
  %1074 = add i64 %i21, 1
  br label %gl.tt

done20:                                           ; preds = %gl.tt
  %1075 = add i64 %i18, 1
  br label %gl.ts

pack.a:                                           ; preds = %done26, %gl.done9
  %i24 = phi i64 [ 0, %gl.done9 ], [ %1089, %done26 ]
  %1076 = icmp slt i64 %i24, 16
  br i1 %1076, label %body22, label %done23

body22:                                           ; preds = %pack.a
  br label %pack.ak

done23:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body25, %body22
  %i27 = phi i64 [ 0, %body22 ], [ %1088, %body25 ]
  %1077 = icmp slt i64 %i27, 16
  br i1 %1077, label %body25, label %done26

body25:                                           ; preds = %pack.ak
  %1078 = mul i64 %i24, 16
  %1079 = add i64 %1078, %i27
  %1080 = mul i64 %i24, 16
  %1081 = add i64 %1080, %i27
  %1082 = getelementptr i16, ptr %a, i64 %1079
  %1083 = load i16, ptr %1082, align 2
  %1084 = zext i16 %1083 to i32
  %1085 = shl i32 %1084, 16
  %1086 = bitcast i32 %1085 to float
  %1087 = getelementptr float, ptr %mma.a, i64 %1081
  store float %1086, ptr %1087, align 4
  %1088 = add i64 %i27, 1
  br label %pack.ak

done26:                                           ; preds = %pack.ak
  %1089 = add i64 %i24, 1
  br label %pack.a

pack.b:                                           ; preds = %done32, %done23
  %i30 = phi i64 [ 0, %done23 ], [ %1111, %done32 ]
  %1090 = icmp slt i64 %i30, 16
  br i1 %1090, label %body28, label %done29

body28:                                           ; preds = %pack.b
  br label %pack.bn

done29:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  store i32 1, ptr %mk.all, align 4
  store i64 16, ptr %mk.first, align 8
  br label %mk.zrows

pack.bn:                                          ; preds = %body31, %body28
  %i33 = phi i64 [ 0, %body28 ], [ %1110, %body31 ]
  %1091 = icmp slt i64 %i33, 16
  br i1 %1091, label %body31, label %done32

body31:                                           ; preds = %pack.bn
  %1092 = mul i64 %i33, 16
  %1093 = add i64 %1092, %i30
  %1094 = udiv i64 %i33, 32
  %1095 = urem i64 %i33, 32
  %1096 = mul i64 %1094, 32
  %1097 = sub i64 16, %1096
  %1098 = icmp slt i64 %1097, 32
  %1099 = select i1 %1098, i64 %1097, i64 32
  %1100 = mul i64 %1094, 512
  %1101 = mul i64 %i30, %1099
  %1102 = add i64 %1101, %1095
  %1103 = add i64 %1100, %1102
  %1104 = getelementptr i16, ptr %b, i64 %1093
  %1105 = load i16, ptr %1104, align 2
  %1106 = zext i16 %1105 to i32
  %1107 = shl i32 %1106, 16
  %1108 = bitcast i32 %1107 to float
  %1109 = getelementptr float, ptr %mma.b, i64 %1103
  store float %1108, ptr %1109, align 4
  %1110 = add i64 %i33, 1
  br label %pack.bn

done32:                                           ; preds = %pack.bn
  %1111 = add i64 %i30, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.scanned, %done29
  %1112 = phi i64 [ 0, %done29 ], [ %1137, %mk.scanned ]
  %1113 = icmp slt i64 %1112, 8
  br i1 %1113, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %1114 = sub i64 7, %1112
  %1115 = mul i64 %1114, 2
  store i32 0, ptr %mk.orv, align 4
  %1116 = mul i64 %1115, 16
  %1117 = add i64 %1116, 0
  %1118 = getelementptr float, ptr %mma.a, i64 %1117
  br label %mk.scan

mk.done:                                          ; preds = %mk.zrows
  %1119 = load i32, ptr %mk.any, align 4
  %1120 = icmp ne i32 %1119, 0
  %1121 = load i32, ptr %mk.all, align 4
  %1122 = icmp ne i32 %1121, 0
  %1123 = load i64, ptr %mk.first, align 8
  %1124 = and i1 %199, %1120
  br i1 %1124, label %mk.zskip, label %mk.zskipdone

mk.scanned:                                       ; preds = %mk.done35, %mk.done37
  %1125 = load i32, ptr %mk.orv, align 4
  %1126 = icmp eq i32 %1125, 0
  %1127 = zext i1 %1126 to i32
  %1128 = getelementptr i8, ptr %mk.skip, i64 %1114
  %1129 = trunc i32 %1127 to i8
  store i8 %1129, ptr %1128, align 1
  %1130 = load i32, ptr %mk.any, align 4
  %1131 = or i32 %1130, %1127
  store i32 %1131, ptr %mk.any, align 4
  %1132 = load i32, ptr %mk.all, align 4
  %1133 = and i32 %1132, %1127
  store i32 %1133, ptr %mk.all, align 4
  %1134 = load i64, ptr %mk.first, align 8
  %1135 = mul i64 %1114, 2
  %1136 = select i1 %1126, i64 %1134, i64 %1135
  store i64 %1136, ptr %mk.first, align 8
  %1137 = add i64 %1112, 1
  br label %mk.zrows

mk.scan:                                          ; preds = %mk.scanmore, %mk.body
  %1138 = phi i64 [ 0, %mk.body ], [ %1151, %mk.scanmore ]
  %1139 = icmp slt i64 %1138, 1
  br i1 %1139, label %mk.body34, label %mk.done35

mk.body34:                                        ; preds = %mk.scan
  %1140 = getelementptr i32, ptr %1118, i64 0
  br label %mk.or

mk.done35:                                        ; preds = %mk.scan
  br label %mk.scanned

mk.or:                                            ; preds = %mk.body36, %mk.body34
  %1141 = phi i64 [ 0, %mk.body34 ], [ %1148, %mk.body36 ]
  %1142 = icmp slt i64 %1141, 32
  br i1 %1142, label %mk.body36, label %mk.done37

mk.body36:                                        ; preds = %mk.or
  %1143 = getelementptr i32, ptr %1140, i64 %1141
  %1144 = load i32, ptr %1143, align 4
  %1145 = and i32 %1144, 2147483647
  %1146 = load i32, ptr %mk.orv, align 4
  %1147 = or i32 %1146, %1145
  store i32 %1147, ptr %mk.orv, align 4
  %1148 = add i64 %1141, 1
  br label %mk.or

mk.done37:                                        ; preds = %mk.or
  %1149 = load i32, ptr %mk.orv, align 4
  %1150 = icmp ne i32 %1149, 0
  br i1 %1150, label %mk.scanned, label %mk.scanmore

mk.scanmore:                                      ; preds = %mk.done37
  %1151 = add i64 %1138, 1
  br label %mk.scan

mk.zskip:                                         ; preds = %mk.done
  br label %mk.zblk

mk.zskipdone:                                     ; preds = %mk.done39, %mk.done
  store i32 0, ptr %mk.bbad, align 4
  %1152 = select i1 %1120, i64 %1123, i64 -1
  br label %mk.pass

mk.zblk:                                          ; preds = %mk.znext, %mk.zskip
  %1153 = phi i64 [ 0, %mk.zskip ], [ %1158, %mk.znext ]
  %1154 = icmp slt i64 %1153, 8
  br i1 %1154, label %mk.body38, label %mk.done39

mk.body38:                                        ; preds = %mk.zblk
  %1155 = getelementptr i8, ptr %mk.skip, i64 %1153
  %1156 = load i8, ptr %1155, align 1
  %1157 = icmp ne i8 %1156, 0
  br i1 %1157, label %mk.zfill, label %mk.znext

mk.done39:                                        ; preds = %mk.zblk
  br label %mk.zskipdone

mk.zfill:                                         ; preds = %mk.body38
  br label %mk.zrow

mk.znext:                                         ; preds = %mk.done41, %mk.body38
  %1158 = add i64 %1153, 1
  br label %mk.zblk

mk.zrow:                                          ; preds = %mk.done43, %mk.zfill
  %1159 = phi i64 [ 0, %mk.zfill ], [ %1169, %mk.done43 ]
  %1160 = icmp slt i64 %1159, 2
  br i1 %1160, label %mk.body40, label %mk.done41

mk.body40:                                        ; preds = %mk.zrow
  %1161 = mul i64 %1153, 2
  %1162 = add i64 %1161, %1159
  %1163 = mul i64 %1162, %196
  br label %mk.zcol

mk.done41:                                        ; preds = %mk.zrow
  br label %mk.znext

mk.zcol:                                          ; preds = %mk.body42, %mk.body40
  %1164 = phi i64 [ 0, %mk.body40 ], [ %1168, %mk.body42 ]
  %1165 = icmp slt i64 %1164, 16
  br i1 %1165, label %mk.body42, label %mk.done43

mk.body42:                                        ; preds = %mk.zcol
  %1166 = add i64 %1163, %1164
  %1167 = getelementptr float, ptr %197, i64 %1166
  store <8 x float> zeroinitializer, ptr %1167, align 4
  %1168 = add i64 %1164, 8
  br label %mk.zcol

mk.done43:                                        ; preds = %mk.zcol
  %1169 = add i64 %1159, 1
  br label %mk.zrow

mk.pass:                                          ; preds = %mk.passdone, %mk.zskipdone
  %1170 = phi i64 [ 0, %mk.zskipdone ], [ %1183, %mk.passdone ]
  %1171 = icmp slt i64 %1170, 2
  br i1 %1171, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.pass
  %1172 = trunc i64 %1170 to i8
  %1173 = load i32, ptr %mk.bbad, align 4
  %1174 = icmp ne i32 %1173, 0
  %1175 = or i1 %1122, %1174
  %1176 = and i1 %1120, %1175
  %1177 = icmp eq i64 %1170, 0
  %1178 = or i1 %1177, %1176
  br i1 %1178, label %mk.passrun, label %mk.passdone

mk.done45:                                        ; preds = %mk.pass
  store i8 0, ptr %acc.zero, align 1
  %1179 = load i8, ptr %acc.zero, align 1
  %1180 = icmp ne i8 %1179, 0
  br i1 %1180, label %acc.fill, label %acc.settled

mk.passrun:                                       ; preds = %mk.body44
  %1181 = icmp eq i64 %1170, 0
  %1182 = select i1 %1181, i64 %1152, i64 -1
  br label %mk.i

mk.passdone:                                      ; preds = %mk.done63, %mk.body44
  %1183 = add i64 %1170, 1
  br label %mk.pass

mk.i:                                             ; preds = %mk.next, %mk.passrun
  %1184 = phi i64 [ 0, %mk.passrun ], [ %1191, %mk.next ]
  %1185 = icmp slt i64 %1184, 16
  br i1 %1185, label %mk.body46, label %mk.done47

mk.body46:                                        ; preds = %mk.i
  %1186 = sdiv i64 %1184, 2
  %1187 = getelementptr i8, ptr %mk.skip, i64 %1186
  %1188 = load i8, ptr %1187, align 1
  %1189 = icmp eq i8 %1188, %1172
  br i1 %1189, label %mk.work, label %mk.next

mk.done47:                                        ; preds = %mk.i
  br label %mk.i61

mk.work:                                          ; preds = %mk.body46
  %1190 = icmp eq i64 %1184, %1182
  br i1 %1190, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body46
  %1191 = add i64 %1184, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  br i1 %199, label %mk.accready, label %mk.accload

mk.plain:                                         ; preds = %mk.work
  br i1 %199, label %mk.accready52, label %mk.accload51

mk.blockdone:                                     ; preds = %mk.kdone57, %mk.kdone
  br label %mk.next

mk.accload:                                       ; preds = %mk.checking
  %1192 = add i64 %1184, 0
  %1193 = mul i64 %1192, %196
  %1194 = add i64 %1193, 0
  %1195 = getelementptr float, ptr %197, i64 %1194
  %1196 = load <8 x float>, ptr %1195, align 4
  %1197 = add i64 %1184, 1
  %1198 = mul i64 %1197, %196
  %1199 = add i64 %1198, 0
  %1200 = getelementptr float, ptr %197, i64 %1199
  %1201 = load <8 x float>, ptr %1200, align 4
  br label %mk.accready

mk.accready:                                      ; preds = %mk.accload, %mk.checking
  %acc0 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %1196, %mk.accload ]
  %acc048 = phi <8 x float> [ zeroinitializer, %mk.checking ], [ %1201, %mk.accload ]
  br label %mk.k

mk.k:                                             ; preds = %mk.kbody, %mk.accready
  %k = phi i64 [ 0, %mk.accready ], [ %1227, %mk.kbody ]
  %acc49 = phi <8 x float> [ %acc0, %mk.accready ], [ %1218, %mk.kbody ]
  %acc50 = phi <8 x float> [ %acc048, %mk.accready ], [ %1226, %mk.kbody ]
  %exponents = phi <8 x i32> [ zeroinitializer, %mk.accready ], [ %1210, %mk.kbody ]
  %1202 = icmp slt i64 %k, 16
  br i1 %1202, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %1203 = mul i64 %k, 16
  %1204 = add i64 %1203, 0
  %1205 = add i64 0, %1204
  %1206 = getelementptr float, ptr %mma.b, i64 %1205
  %1207 = load <8 x float>, ptr %1206, align 4
  %1208 = bitcast <8 x float> %1207 to <8 x i32>
  %1209 = and <8 x i32> %1208, splat (i32 2139095040)
  %1210 = call <8 x i32> @llvm.umax.v8i32(<8 x i32> %exponents, <8 x i32> %1209)
  %1211 = add i64 %1184, 0
  %1212 = mul i64 %1211, 16
  %1213 = add i64 %1212, %k
  %1214 = getelementptr float, ptr %mma.a, i64 %1213
  %1215 = load float, ptr %1214, align 4
  %1216 = insertelement <8 x float> poison, float %1215, i32 0
  %1217 = shufflevector <8 x float> %1216, <8 x float> poison, <8 x i32> zeroinitializer
  %1218 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1217, <8 x float> %1207, <8 x float> %acc49)
  %1219 = add i64 %1184, 1
  %1220 = mul i64 %1219, 16
  %1221 = add i64 %1220, %k
  %1222 = getelementptr float, ptr %mma.a, i64 %1221
  %1223 = load float, ptr %1222, align 4
  %1224 = insertelement <8 x float> poison, float %1223, i32 0
  %1225 = shufflevector <8 x float> %1224, <8 x float> poison, <8 x i32> zeroinitializer
  %1226 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1225, <8 x float> %1207, <8 x float> %acc50)
  %1227 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %1228 = call i32 @llvm.vector.reduce.umax.v8i32(<8 x i32> %exponents)
  %1229 = icmp eq i32 %1228, 2139095040
  %1230 = load i32, ptr %mk.bbad, align 4
  %1231 = zext i1 %1229 to i32
  %1232 = or i32 %1230, %1231
  store i32 %1232, ptr %mk.bbad, align 4
  %1233 = add i64 %1184, 0
  %1234 = mul i64 %1233, %196
  %1235 = add i64 %1234, 0
  %1236 = getelementptr float, ptr %197, i64 %1235
  store <8 x float> %acc49, ptr %1236, align 4
  %1237 = add i64 %1184, 1
  %1238 = mul i64 %1237, %196
  %1239 = add i64 %1238, 0
  %1240 = getelementptr float, ptr %197, i64 %1239
  store <8 x float> %acc50, ptr %1240, align 4
  br label %mk.blockdone

mk.accload51:                                     ; preds = %mk.plain
  %1241 = add i64 %1184, 0
  %1242 = mul i64 %1241, %196
  %1243 = add i64 %1242, 0
  %1244 = getelementptr float, ptr %197, i64 %1243
  %1245 = load <8 x float>, ptr %1244, align 4
  %1246 = add i64 %1184, 1
  %1247 = mul i64 %1246, %196
  %1248 = add i64 %1247, 0
  %1249 = getelementptr float, ptr %197, i64 %1248
  %1250 = load <8 x float>, ptr %1249, align 4
  br label %mk.accready52

mk.accready52:                                    ; preds = %mk.accload51, %mk.plain
  %acc053 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %1245, %mk.accload51 ]
  %acc054 = phi <8 x float> [ zeroinitializer, %mk.plain ], [ %1250, %mk.accload51 ]
  br label %mk.k55

mk.k55:                                           ; preds = %mk.kbody56, %mk.accready52
  %k58 = phi i64 [ 0, %mk.accready52 ], [ %1273, %mk.kbody56 ]
  %acc59 = phi <8 x float> [ %acc053, %mk.accready52 ], [ %1264, %mk.kbody56 ]
  %acc60 = phi <8 x float> [ %acc054, %mk.accready52 ], [ %1272, %mk.kbody56 ]
  %1251 = icmp slt i64 %k58, 16
  br i1 %1251, label %mk.kbody56, label %mk.kdone57

mk.kbody56:                                       ; preds = %mk.k55
  %1252 = mul i64 %k58, 16
  %1253 = add i64 %1252, 0
  %1254 = add i64 0, %1253
  %1255 = getelementptr float, ptr %mma.b, i64 %1254
  %1256 = load <8 x float>, ptr %1255, align 4
  %1257 = add i64 %1184, 0
  %1258 = mul i64 %1257, 16
  %1259 = add i64 %1258, %k58
  %1260 = getelementptr float, ptr %mma.a, i64 %1259
  %1261 = load float, ptr %1260, align 4
  %1262 = insertelement <8 x float> poison, float %1261, i32 0
  %1263 = shufflevector <8 x float> %1262, <8 x float> poison, <8 x i32> zeroinitializer
  %1264 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1263, <8 x float> %1256, <8 x float> %acc59)
  %1265 = add i64 %1184, 1
  %1266 = mul i64 %1265, 16
  %1267 = add i64 %1266, %k58
  %1268 = getelementptr float, ptr %mma.a, i64 %1267
  %1269 = load float, ptr %1268, align 4
  %1270 = insertelement <8 x float> poison, float %1269, i32 0
  %1271 = shufflevector <8 x float> %1270, <8 x float> poison, <8 x i32> zeroinitializer
  %1272 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1271, <8 x float> %1256, <8 x float> %acc60)
  %1273 = add i64 %k58, 1
  br label %mk.k55

mk.kdone57:                                       ; preds = %mk.k55
  %1274 = add i64 %1184, 0
  %1275 = mul i64 %1274, %196
  %1276 = add i64 %1275, 0
  %1277 = getelementptr float, ptr %197, i64 %1276
  store <8 x float> %acc59, ptr %1277, align 4
  %1278 = add i64 %1184, 1
  %1279 = mul i64 %1278, %196
  %1280 = add i64 %1279, 0
  %1281 = getelementptr float, ptr %197, i64 %1280
  store <8 x float> %acc60, ptr %1281, align 4
  br label %mk.blockdone

mk.i61:                                           ; preds = %mk.next65, %mk.done47
  %1282 = phi i64 [ 0, %mk.done47 ], [ %1289, %mk.next65 ]
  %1283 = icmp slt i64 %1282, 16
  br i1 %1283, label %mk.body62, label %mk.done63

mk.body62:                                        ; preds = %mk.i61
  %1284 = sdiv i64 %1282, 2
  %1285 = getelementptr i8, ptr %mk.skip, i64 %1284
  %1286 = load i8, ptr %1285, align 1
  %1287 = icmp eq i8 %1286, %1172
  br i1 %1287, label %mk.work64, label %mk.next65

mk.done63:                                        ; preds = %mk.i61
  br label %mk.passdone

mk.work64:                                        ; preds = %mk.body62
  %1288 = icmp eq i64 %1282, %1182
  br i1 %1288, label %mk.checking66, label %mk.plain67

mk.next65:                                        ; preds = %mk.blockdone68, %mk.body62
  %1289 = add i64 %1282, 2
  br label %mk.i61

mk.checking66:                                    ; preds = %mk.work64
  br i1 %199, label %mk.accready70, label %mk.accload69

mk.plain67:                                       ; preds = %mk.work64
  br i1 %199, label %mk.accready81, label %mk.accload80

mk.blockdone68:                                   ; preds = %mk.kdone86, %mk.kdone75
  br label %mk.next65

mk.accload69:                                     ; preds = %mk.checking66
  %1290 = add i64 %1282, 0
  %1291 = mul i64 %1290, %196
  %1292 = add i64 %1291, 8
  %1293 = getelementptr float, ptr %197, i64 %1292
  %1294 = load <8 x float>, ptr %1293, align 4
  %1295 = add i64 %1282, 1
  %1296 = mul i64 %1295, %196
  %1297 = add i64 %1296, 8
  %1298 = getelementptr float, ptr %197, i64 %1297
  %1299 = load <8 x float>, ptr %1298, align 4
  br label %mk.accready70

mk.accready70:                                    ; preds = %mk.accload69, %mk.checking66
  %acc071 = phi <8 x float> [ zeroinitializer, %mk.checking66 ], [ %1294, %mk.accload69 ]
  %acc072 = phi <8 x float> [ zeroinitializer, %mk.checking66 ], [ %1299, %mk.accload69 ]
  br label %mk.k73

mk.k73:                                           ; preds = %mk.kbody74, %mk.accready70
  %k76 = phi i64 [ 0, %mk.accready70 ], [ %1325, %mk.kbody74 ]
  %acc77 = phi <8 x float> [ %acc071, %mk.accready70 ], [ %1316, %mk.kbody74 ]
  %acc78 = phi <8 x float> [ %acc072, %mk.accready70 ], [ %1324, %mk.kbody74 ]
  %exponents79 = phi <8 x i32> [ zeroinitializer, %mk.accready70 ], [ %1308, %mk.kbody74 ]
  %1300 = icmp slt i64 %k76, 16
  br i1 %1300, label %mk.kbody74, label %mk.kdone75

mk.kbody74:                                       ; preds = %mk.k73
  %1301 = mul i64 %k76, 16
  %1302 = add i64 %1301, 8
  %1303 = add i64 0, %1302
  %1304 = getelementptr float, ptr %mma.b, i64 %1303
  %1305 = load <8 x float>, ptr %1304, align 4
  %1306 = bitcast <8 x float> %1305 to <8 x i32>
  %1307 = and <8 x i32> %1306, splat (i32 2139095040)
  %1308 = call <8 x i32> @llvm.umax.v8i32(<8 x i32> %exponents79, <8 x i32> %1307)
  %1309 = add i64 %1282, 0
  %1310 = mul i64 %1309, 16
  %1311 = add i64 %1310, %k76
  %1312 = getelementptr float, ptr %mma.a, i64 %1311
  %1313 = load float, ptr %1312, align 4
  %1314 = insertelement <8 x float> poison, float %1313, i32 0
  %1315 = shufflevector <8 x float> %1314, <8 x float> poison, <8 x i32> zeroinitializer
  %1316 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1315, <8 x float> %1305, <8 x float> %acc77)
  %1317 = add i64 %1282, 1
  %1318 = mul i64 %1317, 16
  %1319 = add i64 %1318, %k76
  %1320 = getelementptr float, ptr %mma.a, i64 %1319
  %1321 = load float, ptr %1320, align 4
  %1322 = insertelement <8 x float> poison, float %1321, i32 0
  %1323 = shufflevector <8 x float> %1322, <8 x float> poison, <8 x i32> zeroinitializer
  %1324 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1323, <8 x float> %1305, <8 x float> %acc78)
  %1325 = add i64 %k76, 1
  br label %mk.k73

mk.kdone75:                                       ; preds = %mk.k73
  %1326 = call i32 @llvm.vector.reduce.umax.v8i32(<8 x i32> %exponents79)
  %1327 = icmp eq i32 %1326, 2139095040
  %1328 = load i32, ptr %mk.bbad, align 4
  %1329 = zext i1 %1327 to i32
  %1330 = or i32 %1328, %1329
  store i32 %1330, ptr %mk.bbad, align 4
  %1331 = add i64 %1282, 0
  %1332 = mul i64 %1331, %196
  %1333 = add i64 %1332, 8
  %1334 = getelementptr float, ptr %197, i64 %1333
  store <8 x float> %acc77, ptr %1334, align 4
  %1335 = add i64 %1282, 1
  %1336 = mul i64 %1335, %196
  %1337 = add i64 %1336, 8
  %1338 = getelementptr float, ptr %197, i64 %1337
  store <8 x float> %acc78, ptr %1338, align 4
  br label %mk.blockdone68

mk.accload80:                                     ; preds = %mk.plain67
  %1339 = add i64 %1282, 0
  %1340 = mul i64 %1339, %196
  %1341 = add i64 %1340, 8
  %1342 = getelementptr float, ptr %197, i64 %1341
  %1343 = load <8 x float>, ptr %1342, align 4
  %1344 = add i64 %1282, 1
  %1345 = mul i64 %1344, %196
  %1346 = add i64 %1345, 8
  %1347 = getelementptr float, ptr %197, i64 %1346
  %1348 = load <8 x float>, ptr %1347, align 4
  br label %mk.accready81

mk.accready81:                                    ; preds = %mk.accload80, %mk.plain67
  %acc082 = phi <8 x float> [ zeroinitializer, %mk.plain67 ], [ %1343, %mk.accload80 ]
  %acc083 = phi <8 x float> [ zeroinitializer, %mk.plain67 ], [ %1348, %mk.accload80 ]
  br label %mk.k84

mk.k84:                                           ; preds = %mk.kbody85, %mk.accready81
  %k87 = phi i64 [ 0, %mk.accready81 ], [ %1371, %mk.kbody85 ]
  %acc88 = phi <8 x float> [ %acc082, %mk.accready81 ], [ %1362, %mk.kbody85 ]
  %acc89 = phi <8 x float> [ %acc083, %mk.accready81 ], [ %1370, %mk.kbody85 ]
  %1349 = icmp slt i64 %k87, 16
  br i1 %1349, label %mk.kbody85, label %mk.kdone86

mk.kbody85:                                       ; preds = %mk.k84
  %1350 = mul i64 %k87, 16
  %1351 = add i64 %1350, 8
  %1352 = add i64 0, %1351
  %1353 = getelementptr float, ptr %mma.b, i64 %1352
  %1354 = load <8 x float>, ptr %1353, align 4
  %1355 = add i64 %1282, 0
  %1356 = mul i64 %1355, 16
  %1357 = add i64 %1356, %k87
  %1358 = getelementptr float, ptr %mma.a, i64 %1357
  %1359 = load float, ptr %1358, align 4
  %1360 = insertelement <8 x float> poison, float %1359, i32 0
  %1361 = shufflevector <8 x float> %1360, <8 x float> poison, <8 x i32> zeroinitializer
  %1362 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1361, <8 x float> %1354, <8 x float> %acc88)
  %1363 = add i64 %1282, 1
  %1364 = mul i64 %1363, 16
  %1365 = add i64 %1364, %k87
  %1366 = getelementptr float, ptr %mma.a, i64 %1365
  %1367 = load float, ptr %1366, align 4
  %1368 = insertelement <8 x float> poison, float %1367, i32 0
  %1369 = shufflevector <8 x float> %1368, <8 x float> poison, <8 x i32> zeroinitializer
  %1370 = call <8 x float> @llvm.fma.v8f32(<8 x float> %1369, <8 x float> %1354, <8 x float> %acc89)
  %1371 = add i64 %k87, 1
  br label %mk.k84

mk.kdone86:                                       ; preds = %mk.k84
  %1372 = add i64 %1282, 0
  %1373 = mul i64 %1372, %196
  %1374 = add i64 %1373, 8
  %1375 = getelementptr float, ptr %197, i64 %1374
  store <8 x float> %acc88, ptr %1375, align 4
  %1376 = add i64 %1282, 1
  %1377 = mul i64 %1376, %196
  %1378 = add i64 %1377, 8
  %1379 = getelementptr float, ptr %197, i64 %1378
  store <8 x float> %acc89, ptr %1379, align 4
  br label %mk.blockdone68

acc.fill:                                         ; preds = %mk.done45
  %1380 = load ptr, ptr %acc.at, align 8
  %1381 = load i64, ptr %acc.stride, align 8
  br label %acc.zrow

acc.settled:                                      ; preds = %done91, %mk.done45
  %1382 = load ptr, ptr %acc.at, align 8
  %acc.inplace = icmp ne ptr %1382, %acc
  br i1 %acc.inplace, label %acc.stored, label %acc.copy

acc.zrow:                                         ; preds = %body90, %acc.fill
  %i92 = phi i64 [ 0, %acc.fill ], [ %1386, %body90 ]
  %1383 = icmp slt i64 %i92, 16
  br i1 %1383, label %body90, label %done91

body90:                                           ; preds = %acc.zrow
  %1384 = mul i64 %i92, %1381
  %1385 = getelementptr float, ptr %1380, i64 %1384
  call void @llvm.memset.p0.i64(ptr align 4 %1385, i8 0, i64 64, i1 false)
  %1386 = add i64 %i92, 1
  br label %acc.zrow

done91:                                           ; preds = %acc.zrow
  store i8 0, ptr %acc.zero, align 1
  br label %acc.settled

acc.copy:                                         ; preds = %acc.settled
  %1387 = getelementptr i64, ptr %1, i64 0
  %1388 = load i64, ptr %1387, align 8
  %1389 = mul i64 1, %1388
  %1390 = add i64 0, %1389
  %1391 = getelementptr i64, ptr %1, i64 2
  %1392 = load i64, ptr %1391, align 8
  %1393 = mul i64 1, %1392
  %1394 = add i64 0, %1393
  %1395 = sext i32 %3 to i64
  %1396 = icmp slt i64 %1395, 1099511627776
  %1397 = select i1 %1396, i64 %1395, i64 1099511627776
  %1398 = icmp sgt i64 %1397, -1099511627776
  %1399 = select i1 %1398, i64 %1397, i64 -1099511627776
  %1400 = mul i64 %1399, 16
  %1401 = sext i32 %2 to i64
  %1402 = icmp slt i64 %1401, 1099511627776
  %1403 = select i1 %1402, i64 %1401, i64 1099511627776
  %1404 = icmp sgt i64 %1403, -1099511627776
  %1405 = select i1 %1404, i64 %1403, i64 -1099511627776
  %1406 = mul i64 %1405, 16
  %1407 = icmp sge i64 %1400, 0
  %1408 = and i1 true, %1407
  %1409 = icmp sge i64 %1406, 0
  %1410 = and i1 %1408, %1409
  %1411 = add i64 %1400, 16
  %1412 = add i64 %1406, 16
  %1413 = icmp sle i64 %1411, %1390
  %1414 = and i1 %1410, %1413
  %1415 = icmp sle i64 %1412, %1394
  %1416 = and i1 %1414, %1415
  br i1 %1416, label %gl.inside93, label %gl.edge94

acc.stored:                                       ; preds = %gl.done95, %acc.settled
  ret void

gl.inside93:                                      ; preds = %acc.copy
  %1417 = mul i64 0, %1390
  %1418 = add i64 %1417, %1400
  br label %in.row96

gl.edge94:                                        ; preds = %acc.copy
  br label %gl.row100

gl.done95:                                        ; preds = %done102, %done98
  br label %acc.stored

in.row96:                                         ; preds = %body97, %gl.inside93
  %i99 = phi i64 [ 0, %gl.inside93 ], [ %1429, %body97 ]
  %1419 = icmp slt i64 %i99, 16
  br i1 %1419, label %body97, label %done98

body97:                                           ; preds = %in.row96
  %1420 = add i64 %1418, %i99
  %1421 = mul i64 %1420, %1394
  %1422 = add i64 %1421, %1406
  %1423 = mul i64 %i99, 16
  %1424 = add i64 %1423, 0
  %1425 = add i64 %1422, 0
  %1426 = getelementptr float, ptr %acc, i64 %1424
  %1427 = getelementptr float, ptr %C, i64 %1425
  %1428 = load <16 x float>, ptr %1426, align 4
  store <16 x float> %1428, ptr %1427, align 4
  %1429 = add i64 %i99, 1
  br label %in.row96

done98:                                           ; preds = %in.row96
  br label %gl.done95

gl.row100:                                        ; preds = %done106, %gl.edge94
  %i103 = phi i64 [ 0, %gl.edge94 ], [ %1466, %done106 ]
  %1430 = icmp slt i64 %i103, 16
  br i1 %1430, label %body101, label %done102

body101:                                          ; preds = %gl.row100
  %1431 = add i64 %1400, %i103
  %1432 = icmp sgt i64 %1390, 0
  %1433 = select i1 %1432, i64 %1390, i64 0
  %1434 = icmp ult i64 %1431, %1433
  %1435 = and i1 true, %1434
  %1436 = mul i64 0, %1390
  %1437 = add i64 %1436, %1431
  %1438 = mul i64 %1437, %1394
  %1439 = sub i64 0, %1406
  %1440 = icmp sgt i64 %1439, 0
  %1441 = select i1 %1440, i64 %1439, i64 0
  %1442 = sub i64 %1394, %1406
  %1443 = icmp slt i64 %1442, 16
  %1444 = select i1 %1443, i64 %1442, i64 16
  %1445 = select i1 %1435, i64 %1444, i64 0
  %1446 = add i64 %1438, %1406
  br label %gl.chunk104

done102:                                          ; preds = %gl.row100
  br label %gl.done95

gl.chunk104:                                      ; preds = %body105, %body101
  %i107 = phi i64 [ 0, %body101 ], [ %1465, %body105 ]
  %1447 = icmp slt i64 %i107, 1
  br i1 %1447, label %body105, label %done106

body105:                                          ; preds = %gl.chunk104
  %1448 = mul i64 %i107, 16
  %1449 = insertelement <16 x i64> undef, i64 %1448, i32 0
  %1450 = shufflevector <16 x i64> %1449, <16 x i64> undef, <16 x i32> zeroinitializer
  %1451 = insertelement <16 x i64> undef, i64 %1441, i32 0
  %1452 = shufflevector <16 x i64> %1451, <16 x i64> undef, <16 x i32> zeroinitializer
  %1453 = insertelement <16 x i64> undef, i64 %1445, i32 0
  %1454 = shufflevector <16 x i64> %1453, <16 x i64> undef, <16 x i32> zeroinitializer
  %1455 = add <16 x i64> %1450, <i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15>
  %1456 = icmp slt <16 x i64> %1455, %1454
  %1457 = icmp sge <16 x i64> %1455, %1452
  %1458 = and <16 x i1> %1457, %1456
  %1459 = add i64 %1446, %1448
  %1460 = getelementptr float, ptr %C, i64 %1459
  %1461 = mul i64 %i103, 16
  %1462 = add i64 %1461, %1448
  %1463 = getelementptr float, ptr %acc, i64 %1462
  %1464 = load <16 x float>, ptr %1463, align 4
  call void @llvm.masked.store.v16f32.p0(<16 x float> %1464, ptr align 4 %1460, <16 x i1> %1458)
  %1465 = add i64 %i107, 1
  br label %gl.chunk104

done106:                                          ; preds = %gl.chunk104
  %1466 = add i64 %i103, 1
  br label %gl.row100
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: read)
declare <16 x i16> @llvm.masked.load.v16i16.p0(ptr captures(none), <16 x i1>, <16 x i16>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x i32> @llvm.umax.v8i32(<8 x i32>, <8 x i32>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i32 @llvm.vector.reduce.umax.v8i32(<8 x i32>) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #3

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: write)
declare void @llvm.masked.store.v16f32.p0(<16 x float>, ptr captures(none), <16 x i1>) #4

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(argmem: read) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(argmem: write) }
