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
  %mk.bbad = alloca i32, i64 1, align 4
  %mk.first = alloca i64, i64 1, align 8
  %mk.all = alloca i32, i64 1, align 4
  %mk.any = alloca i32, i64 1, align 4
  %mk.orv = alloca i32, i64 1, align 4
  %mk.skip = alloca i8, i64 8, align 1
  %acc = alloca [256 x float], align 64
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
  br label %fill

fill:                                             ; preds = %body, %start
  %i = phi i64 [ 0, %start ], [ %16, %body ]
  %14 = icmp slt i64 %i, 256
  br i1 %14, label %body, label %done

body:                                             ; preds = %fill
  %15 = getelementptr float, ptr %acc, i64 %i
  store float 0.000000e+00, ptr %15, align 4
  %16 = add i64 %i, 1
  br label %fill

done:                                             ; preds = %fill
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
  %31 = icmp sge i64 %30, 0
  %32 = and i1 true, %31
  %33 = and i1 %32, true
  %34 = add i64 %30, 16
  %35 = icmp sle i64 %34, %20
  %36 = and i1 %33, %35
  %37 = icmp sle i64 16, %24
  %38 = and i1 %36, %37
  br i1 %38, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %done
  %39 = mul i64 0, %20
  %40 = add i64 %39, %30
  br label %in.row

gl.edge:                                          ; preds = %done
  call void @llvm.memset.p0.i64(ptr align 64 %a, i8 0, i64 512, i1 false)
  br label %gl.row

gl.done:                                          ; preds = %done8, %done2
  %41 = getelementptr i64, ptr %1, i64 1
  %42 = load i64, ptr %41, align 8
  %43 = mul i64 1, %42
  %44 = add i64 0, %43
  %45 = getelementptr i64, ptr %1, i64 2
  %46 = load i64, ptr %45, align 8
  %47 = mul i64 1, %46
  %48 = add i64 0, %47
  %49 = sext i32 %2 to i64
  %50 = icmp slt i64 %49, 1099511627776
  %51 = select i1 %50, i64 %49, i64 1099511627776
  %52 = icmp sgt i64 %51, -1099511627776
  %53 = select i1 %52, i64 %51, i64 -1099511627776
  %54 = mul i64 %53, 16
  %55 = icmp sge i64 %54, 0
  %56 = and i1 true, %55
  %57 = add i64 %54, 16
  %58 = icmp sle i64 16, %44
  %59 = and i1 %56, %58
  %60 = icmp sle i64 %57, %48
  %61 = and i1 %59, %60
  br i1 %61, label %gl.inside13, label %gl.edge14

in.row:                                           ; preds = %done5, %gl.inside
  %i3 = phi i64 [ 0, %gl.inside ], [ %74, %done5 ]
  %62 = icmp slt i64 %i3, 16
  br i1 %62, label %body1, label %done2

body1:                                            ; preds = %in.row
  %63 = add i64 %40, %i3
  %64 = mul i64 %63, %24
  %65 = add i64 %64, 0
  br label %in.col

done2:                                            ; preds = %in.row
  br label %gl.done

in.col:                                           ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %73, %body4 ]
  %66 = icmp slt i64 %i6, 16
  br i1 %66, label %body4, label %done5

body4:                                            ; preds = %in.col
  %67 = mul i64 %i3, 16
  %68 = add i64 %67, %i6
  %69 = add i64 %65, %i6
  %70 = getelementptr i16, ptr %A, i64 %69
  %71 = load i16, ptr %70, align 2
  %72 = getelementptr i16, ptr %a, i64 %68
  store i16 %71, ptr %72, align 2
  %73 = add i64 %i6, 1
  br label %in.col

done5:                                            ; preds = %in.col
  %74 = add i64 %i3, 1
  br label %in.row

gl.row:                                           ; preds = %done11, %gl.edge
  %i9 = phi i64 [ 0, %gl.edge ], [ %99, %done11 ]
  %75 = icmp slt i64 %i9, 16
  br i1 %75, label %body7, label %done8

body7:                                            ; preds = %gl.row
  %76 = add i64 %30, %i9
  %77 = icmp slt i64 %76, %20
  %78 = icmp sge i64 %76, 0
  %79 = and i1 %78, %77
  %80 = and i1 true, %79
  %81 = mul i64 0, %20
  %82 = add i64 %81, %76
  %83 = mul i64 %82, %24
  %84 = sub i64 %24, 0
  %85 = icmp slt i64 %84, 16
  %86 = select i1 %85, i64 %84, i64 16
  %87 = select i1 %80, i64 %86, i64 0
  %88 = sub i64 %87, 0
  br label %gl.col

done8:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body10, %body7
  %i12 = phi i64 [ 0, %body7 ], [ %98, %body10 ]
  %89 = icmp slt i64 %i12, %88
  br i1 %89, label %body10, label %done11

body10:                                           ; preds = %gl.col
  %90 = add i64 %i12, 0
  %91 = mul i64 %i9, 16
  %92 = add i64 %91, %90
  %93 = add i64 0, %90
  %94 = add i64 %83, %93
  %95 = getelementptr i16, ptr %A, i64 %94
  %96 = load i16, ptr %95, align 2
  %97 = getelementptr i16, ptr %a, i64 %92
  store i16 %96, ptr %97, align 2
  %98 = add i64 %i12, 1
  br label %gl.col

done11:                                           ; preds = %gl.col
  %99 = add i64 %i9, 1
  br label %gl.row

gl.inside13:                                      ; preds = %gl.done
  %100 = mul i64 0, %44
  %101 = add i64 %100, 0
  br label %in.row16

gl.edge14:                                        ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  br label %gl.row24

gl.done15:                                        ; preds = %done26, %done18
  br label %pack.a

in.row16:                                         ; preds = %done22, %gl.inside13
  %i19 = phi i64 [ 0, %gl.inside13 ], [ %114, %done22 ]
  %102 = icmp slt i64 %i19, 16
  br i1 %102, label %body17, label %done18

body17:                                           ; preds = %in.row16
  %103 = add i64 %101, %i19
  %104 = mul i64 %103, %48
  %105 = add i64 %104, %54
  br label %in.col20

done18:                                           ; preds = %in.row16
  br label %gl.done15

in.col20:                                         ; preds = %body21, %body17
  %i23 = phi i64 [ 0, %body17 ], [ %113, %body21 ]
  %106 = icmp slt i64 %i23, 16
  br i1 %106, label %body21, label %done22

body21:                                           ; preds = %in.col20
  %107 = mul i64 %i23, 16
  %108 = add i64 %107, %i19
  %109 = add i64 %105, %i23
  %110 = getelementptr i16, ptr %B, i64 %109
  %111 = load i16, ptr %110, align 2
  %112 = getelementptr i16, ptr %b, i64 %108
  store i16 %111, ptr %112, align 2
  %113 = add i64 %i23, 1
  br label %in.col20

done22:                                           ; preds = %in.col20
  %114 = add i64 %i19, 1
  br label %in.row16

gl.row24:                                         ; preds = %done30, %gl.edge14
  %i27 = phi i64 [ 0, %gl.edge14 ], [ %142, %done30 ]
  %115 = icmp slt i64 %i27, 16
  br i1 %115, label %body25, label %done26

body25:                                           ; preds = %gl.row24
  %116 = add i64 0, %i27
  %117 = icmp slt i64 %116, %44
  %118 = icmp sge i64 %116, 0
  %119 = and i1 %118, %117
  %120 = and i1 true, %119
  %121 = mul i64 0, %44
  %122 = add i64 %121, %116
  %123 = mul i64 %122, %48
  %124 = sub i64 0, %54
  %125 = icmp sgt i64 %124, 0
  %126 = select i1 %125, i64 %124, i64 0
  %127 = sub i64 %48, %54
  %128 = icmp slt i64 %127, 16
  %129 = select i1 %128, i64 %127, i64 16
  %130 = select i1 %120, i64 %129, i64 0
  %131 = sub i64 %130, %126
  br label %gl.col28

done26:                                           ; preds = %gl.row24
  br label %gl.done15

gl.col28:                                         ; preds = %body29, %body25
  %i31 = phi i64 [ 0, %body25 ], [ %141, %body29 ]
  %132 = icmp slt i64 %i31, %131
  br i1 %132, label %body29, label %done30

body29:                                           ; preds = %gl.col28
  %133 = add i64 %i31, %126
  %134 = mul i64 %133, 16
  %135 = add i64 %134, %i27
  %136 = add i64 %54, %133
  %137 = add i64 %123, %136
  %138 = getelementptr i16, ptr %B, i64 %137
  %139 = load i16, ptr %138, align 2
  %140 = getelementptr i16, ptr %b, i64 %135
  store i16 %139, ptr %140, align 2
  %141 = add i64 %i31, 1
  br label %gl.col28

done30:                                           ; preds = %gl.col28
  %142 = add i64 %i27, 1
  br label %gl.row24

pack.a:                                           ; preds = %done36, %gl.done15
  %i34 = phi i64 [ 0, %gl.done15 ], [ %156, %done36 ]
  %143 = icmp slt i64 %i34, 16
  br i1 %143, label %body32, label %done33

body32:                                           ; preds = %pack.a
  br label %pack.ak

done33:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body35, %body32
  %i37 = phi i64 [ 0, %body32 ], [ %155, %body35 ]
  %144 = icmp slt i64 %i37, 16
  br i1 %144, label %body35, label %done36

body35:                                           ; preds = %pack.ak
  %145 = mul i64 %i34, 16
  %146 = add i64 %145, %i37
  %147 = mul i64 %i34, 16
  %148 = add i64 %147, %i37
  %149 = getelementptr i16, ptr %a, i64 %146
  %150 = load i16, ptr %149, align 2
  %151 = zext i16 %150 to i32
  %152 = shl i32 %151, 16
  %153 = bitcast i32 %152 to float
  %154 = getelementptr float, ptr %mma.a, i64 %148
  store float %153, ptr %154, align 4
  %155 = add i64 %i37, 1
  br label %pack.ak

done36:                                           ; preds = %pack.ak
  %156 = add i64 %i34, 1
  br label %pack.a

pack.b:                                           ; preds = %done42, %done33
  %i40 = phi i64 [ 0, %done33 ], [ %178, %done42 ]
  %157 = icmp slt i64 %i40, 16
  br i1 %157, label %body38, label %done39

body38:                                           ; preds = %pack.b
  br label %pack.bn

done39:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  store i32 1, ptr %mk.all, align 4
  store i64 16, ptr %mk.first, align 8
  br label %mk.zrows

pack.bn:                                          ; preds = %body41, %body38
  %i43 = phi i64 [ 0, %body38 ], [ %177, %body41 ]
  %158 = icmp slt i64 %i43, 16
  br i1 %158, label %body41, label %done42

body41:                                           ; preds = %pack.bn
  %159 = mul i64 %i43, 16
  %160 = add i64 %159, %i40
  %161 = udiv i64 %i43, 32
  %162 = urem i64 %i43, 32
  %163 = mul i64 %161, 32
  %164 = sub i64 16, %163
  %165 = icmp slt i64 %164, 32
  %166 = select i1 %165, i64 %164, i64 32
  %167 = mul i64 %161, 512
  %168 = mul i64 %i40, %166
  %169 = add i64 %168, %162
  %170 = add i64 %167, %169
  %171 = getelementptr i16, ptr %b, i64 %160
  %172 = load i16, ptr %171, align 2
  %173 = zext i16 %172 to i32
  %174 = shl i32 %173, 16
  %175 = bitcast i32 %174 to float
  %176 = getelementptr float, ptr %mma.b, i64 %170
  store float %175, ptr %176, align 4
  %177 = add i64 %i43, 1
  br label %pack.bn

done42:                                           ; preds = %pack.bn
  %178 = add i64 %i40, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.done45, %done39
  %179 = phi i64 [ 0, %done39 ], [ %210, %mk.done45 ]
  %180 = icmp slt i64 %179, 8
  br i1 %180, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %181 = sub i64 7, %179
  %182 = mul i64 %181, 32
  store i32 0, ptr %mk.orv, align 4
  br label %mk.or

mk.done:                                          ; preds = %mk.zrows
  %183 = load i32, ptr %mk.any, align 4
  %184 = icmp ne i32 %183, 0
  %185 = load i32, ptr %mk.all, align 4
  %186 = icmp ne i32 %185, 0
  %187 = load i64, ptr %mk.first, align 8
  store i32 0, ptr %mk.bbad, align 4
  %188 = select i1 %184, i64 %187, i64 -1
  br label %mk.pass

mk.or:                                            ; preds = %mk.body44, %mk.body
  %189 = phi i64 [ 0, %mk.body ], [ %197, %mk.body44 ]
  %190 = icmp slt i64 %189, 32
  br i1 %190, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.or
  %191 = add i64 %182, %189
  %192 = getelementptr i32, ptr %mma.a, i64 %191
  %193 = load i32, ptr %192, align 4
  %194 = and i32 %193, 2147483647
  %195 = load i32, ptr %mk.orv, align 4
  %196 = or i32 %195, %194
  store i32 %196, ptr %mk.orv, align 4
  %197 = add i64 %189, 1
  br label %mk.or

mk.done45:                                        ; preds = %mk.or
  %198 = load i32, ptr %mk.orv, align 4
  %199 = icmp eq i32 %198, 0
  %200 = zext i1 %199 to i32
  %201 = getelementptr i8, ptr %mk.skip, i64 %181
  %202 = trunc i32 %200 to i8
  store i8 %202, ptr %201, align 1
  %203 = load i32, ptr %mk.any, align 4
  %204 = or i32 %203, %200
  store i32 %204, ptr %mk.any, align 4
  %205 = load i32, ptr %mk.all, align 4
  %206 = and i32 %205, %200
  store i32 %206, ptr %mk.all, align 4
  %207 = load i64, ptr %mk.first, align 8
  %208 = mul i64 %181, 2
  %209 = select i1 %199, i64 %207, i64 %208
  store i64 %209, ptr %mk.first, align 8
  %210 = add i64 %179, 1
  br label %mk.zrows

mk.pass:                                          ; preds = %mk.passdone, %mk.done
  %211 = phi i64 [ 0, %mk.done ], [ %252, %mk.passdone ]
  %212 = icmp slt i64 %211, 2
  br i1 %212, label %mk.body46, label %mk.done47

mk.body46:                                        ; preds = %mk.pass
  %213 = trunc i64 %211 to i8
  %214 = load i32, ptr %mk.bbad, align 4
  %215 = icmp ne i32 %214, 0
  %216 = or i1 %186, %215
  %217 = and i1 %184, %216
  %218 = icmp eq i64 %211, 0
  %219 = or i1 %218, %217
  br i1 %219, label %mk.passrun, label %mk.passdone

mk.done47:                                        ; preds = %mk.pass
  %220 = getelementptr i64, ptr %1, i64 0
  %221 = load i64, ptr %220, align 8
  %222 = mul i64 1, %221
  %223 = add i64 0, %222
  %224 = getelementptr i64, ptr %1, i64 2
  %225 = load i64, ptr %224, align 8
  %226 = mul i64 1, %225
  %227 = add i64 0, %226
  %228 = sext i32 %3 to i64
  %229 = icmp slt i64 %228, 1099511627776
  %230 = select i1 %229, i64 %228, i64 1099511627776
  %231 = icmp sgt i64 %230, -1099511627776
  %232 = select i1 %231, i64 %230, i64 -1099511627776
  %233 = mul i64 %232, 16
  %234 = sext i32 %2 to i64
  %235 = icmp slt i64 %234, 1099511627776
  %236 = select i1 %235, i64 %234, i64 1099511627776
  %237 = icmp sgt i64 %236, -1099511627776
  %238 = select i1 %237, i64 %236, i64 -1099511627776
  %239 = mul i64 %238, 16
  %240 = icmp sge i64 %233, 0
  %241 = and i1 true, %240
  %242 = icmp sge i64 %239, 0
  %243 = and i1 %241, %242
  %244 = add i64 %233, 16
  %245 = add i64 %239, 16
  %246 = icmp sle i64 %244, %223
  %247 = and i1 %243, %246
  %248 = icmp sle i64 %245, %227
  %249 = and i1 %247, %248
  br i1 %249, label %gl.inside79, label %gl.edge80

mk.passrun:                                       ; preds = %mk.body46
  %250 = icmp eq i64 %211, 0
  %251 = select i1 %250, i64 %188, i64 -1
  br label %mk.i

mk.passdone:                                      ; preds = %mk.done60, %mk.body46
  %252 = add i64 %211, 1
  br label %mk.pass

mk.i:                                             ; preds = %mk.next, %mk.passrun
  %253 = phi i64 [ 0, %mk.passrun ], [ %260, %mk.next ]
  %254 = icmp slt i64 %253, 16
  br i1 %254, label %mk.body48, label %mk.done49

mk.body48:                                        ; preds = %mk.i
  %255 = sdiv i64 %253, 2
  %256 = getelementptr i8, ptr %mk.skip, i64 %255
  %257 = load i8, ptr %256, align 1
  %258 = icmp eq i8 %257, %213
  br i1 %258, label %mk.work, label %mk.next

mk.done49:                                        ; preds = %mk.i
  br label %mk.i58

mk.work:                                          ; preds = %mk.body48
  %259 = icmp eq i64 %253, %251
  br i1 %259, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body48
  %260 = add i64 %253, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  %261 = add i64 %253, 0
  %262 = mul i64 %261, 16
  %263 = add i64 %262, 0
  %264 = getelementptr float, ptr %acc, i64 %263
  %265 = load <8 x float>, ptr %264, align 4
  %266 = add i64 %253, 1
  %267 = mul i64 %266, 16
  %268 = add i64 %267, 0
  %269 = getelementptr float, ptr %acc, i64 %268
  %270 = load <8 x float>, ptr %269, align 4
  br label %mk.k

mk.plain:                                         ; preds = %mk.work
  %271 = add i64 %253, 0
  %272 = mul i64 %271, 16
  %273 = add i64 %272, 0
  %274 = getelementptr float, ptr %acc, i64 %273
  %275 = load <8 x float>, ptr %274, align 4
  %276 = add i64 %253, 1
  %277 = mul i64 %276, 16
  %278 = add i64 %277, 0
  %279 = getelementptr float, ptr %acc, i64 %278
  %280 = load <8 x float>, ptr %279, align 4
  br label %mk.k52

mk.blockdone:                                     ; preds = %mk.kdone54, %mk.kdone
  br label %mk.next

mk.k:                                             ; preds = %mk.kbody, %mk.checking
  %k = phi i64 [ 0, %mk.checking ], [ %307, %mk.kbody ]
  %acc50 = phi <8 x float> [ %265, %mk.checking ], [ %298, %mk.kbody ]
  %acc51 = phi <8 x float> [ %270, %mk.checking ], [ %306, %mk.kbody ]
  %nonfinite = phi <8 x i1> [ zeroinitializer, %mk.checking ], [ %290, %mk.kbody ]
  %281 = icmp slt i64 %k, 16
  br i1 %281, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %282 = mul i64 %k, 16
  %283 = add i64 %282, 0
  %284 = add i64 0, %283
  %285 = getelementptr float, ptr %mma.b, i64 %284
  %286 = load <8 x float>, ptr %285, align 4
  %287 = bitcast <8 x float> %286 to <8 x i32>
  %288 = and <8 x i32> %287, splat (i32 2139095040)
  %289 = icmp eq <8 x i32> %288, splat (i32 2139095040)
  %290 = or <8 x i1> %nonfinite, %289
  %291 = add i64 %253, 0
  %292 = mul i64 %291, 16
  %293 = add i64 %292, %k
  %294 = getelementptr float, ptr %mma.a, i64 %293
  %295 = load float, ptr %294, align 4
  %296 = insertelement <8 x float> poison, float %295, i32 0
  %297 = shufflevector <8 x float> %296, <8 x float> poison, <8 x i32> zeroinitializer
  %298 = call <8 x float> @llvm.fma.v8f32(<8 x float> %297, <8 x float> %286, <8 x float> %acc50)
  %299 = add i64 %253, 1
  %300 = mul i64 %299, 16
  %301 = add i64 %300, %k
  %302 = getelementptr float, ptr %mma.a, i64 %301
  %303 = load float, ptr %302, align 4
  %304 = insertelement <8 x float> poison, float %303, i32 0
  %305 = shufflevector <8 x float> %304, <8 x float> poison, <8 x i32> zeroinitializer
  %306 = call <8 x float> @llvm.fma.v8f32(<8 x float> %305, <8 x float> %286, <8 x float> %acc51)
  %307 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %308 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite)
  %309 = load i32, ptr %mk.bbad, align 4
  %310 = zext i1 %308 to i32
  %311 = or i32 %309, %310
  store i32 %311, ptr %mk.bbad, align 4
  %312 = add i64 %253, 0
  %313 = mul i64 %312, 16
  %314 = add i64 %313, 0
  %315 = getelementptr float, ptr %acc, i64 %314
  store <8 x float> %acc50, ptr %315, align 4
  %316 = add i64 %253, 1
  %317 = mul i64 %316, 16
  %318 = add i64 %317, 0
  %319 = getelementptr float, ptr %acc, i64 %318
  store <8 x float> %acc51, ptr %319, align 4
  br label %mk.blockdone

mk.k52:                                           ; preds = %mk.kbody53, %mk.plain
  %k55 = phi i64 [ 0, %mk.plain ], [ %342, %mk.kbody53 ]
  %acc56 = phi <8 x float> [ %275, %mk.plain ], [ %333, %mk.kbody53 ]
  %acc57 = phi <8 x float> [ %280, %mk.plain ], [ %341, %mk.kbody53 ]
  %320 = icmp slt i64 %k55, 16
  br i1 %320, label %mk.kbody53, label %mk.kdone54

mk.kbody53:                                       ; preds = %mk.k52
  %321 = mul i64 %k55, 16
  %322 = add i64 %321, 0
  %323 = add i64 0, %322
  %324 = getelementptr float, ptr %mma.b, i64 %323
  %325 = load <8 x float>, ptr %324, align 4
  %326 = add i64 %253, 0
  %327 = mul i64 %326, 16
  %328 = add i64 %327, %k55
  %329 = getelementptr float, ptr %mma.a, i64 %328
  %330 = load float, ptr %329, align 4
  %331 = insertelement <8 x float> poison, float %330, i32 0
  %332 = shufflevector <8 x float> %331, <8 x float> poison, <8 x i32> zeroinitializer
  %333 = call <8 x float> @llvm.fma.v8f32(<8 x float> %332, <8 x float> %325, <8 x float> %acc56)
  %334 = add i64 %253, 1
  %335 = mul i64 %334, 16
  %336 = add i64 %335, %k55
  %337 = getelementptr float, ptr %mma.a, i64 %336
  %338 = load float, ptr %337, align 4
  %339 = insertelement <8 x float> poison, float %338, i32 0
  %340 = shufflevector <8 x float> %339, <8 x float> poison, <8 x i32> zeroinitializer
  %341 = call <8 x float> @llvm.fma.v8f32(<8 x float> %340, <8 x float> %325, <8 x float> %acc57)
  %342 = add i64 %k55, 1
  br label %mk.k52

mk.kdone54:                                       ; preds = %mk.k52
  %343 = add i64 %253, 0
  %344 = mul i64 %343, 16
  %345 = add i64 %344, 0
  %346 = getelementptr float, ptr %acc, i64 %345
  store <8 x float> %acc56, ptr %346, align 4
  %347 = add i64 %253, 1
  %348 = mul i64 %347, 16
  %349 = add i64 %348, 0
  %350 = getelementptr float, ptr %acc, i64 %349
  store <8 x float> %acc57, ptr %350, align 4
  br label %mk.blockdone

mk.i58:                                           ; preds = %mk.next62, %mk.done49
  %351 = phi i64 [ 0, %mk.done49 ], [ %358, %mk.next62 ]
  %352 = icmp slt i64 %351, 16
  br i1 %352, label %mk.body59, label %mk.done60

mk.body59:                                        ; preds = %mk.i58
  %353 = sdiv i64 %351, 2
  %354 = getelementptr i8, ptr %mk.skip, i64 %353
  %355 = load i8, ptr %354, align 1
  %356 = icmp eq i8 %355, %213
  br i1 %356, label %mk.work61, label %mk.next62

mk.done60:                                        ; preds = %mk.i58
  br label %mk.passdone

mk.work61:                                        ; preds = %mk.body59
  %357 = icmp eq i64 %351, %251
  br i1 %357, label %mk.checking63, label %mk.plain64

mk.next62:                                        ; preds = %mk.blockdone65, %mk.body59
  %358 = add i64 %351, 2
  br label %mk.i58

mk.checking63:                                    ; preds = %mk.work61
  %359 = add i64 %351, 0
  %360 = mul i64 %359, 16
  %361 = add i64 %360, 8
  %362 = getelementptr float, ptr %acc, i64 %361
  %363 = load <8 x float>, ptr %362, align 4
  %364 = add i64 %351, 1
  %365 = mul i64 %364, 16
  %366 = add i64 %365, 8
  %367 = getelementptr float, ptr %acc, i64 %366
  %368 = load <8 x float>, ptr %367, align 4
  br label %mk.k66

mk.plain64:                                       ; preds = %mk.work61
  %369 = add i64 %351, 0
  %370 = mul i64 %369, 16
  %371 = add i64 %370, 8
  %372 = getelementptr float, ptr %acc, i64 %371
  %373 = load <8 x float>, ptr %372, align 4
  %374 = add i64 %351, 1
  %375 = mul i64 %374, 16
  %376 = add i64 %375, 8
  %377 = getelementptr float, ptr %acc, i64 %376
  %378 = load <8 x float>, ptr %377, align 4
  br label %mk.k73

mk.blockdone65:                                   ; preds = %mk.kdone75, %mk.kdone68
  br label %mk.next62

mk.k66:                                           ; preds = %mk.kbody67, %mk.checking63
  %k69 = phi i64 [ 0, %mk.checking63 ], [ %405, %mk.kbody67 ]
  %acc70 = phi <8 x float> [ %363, %mk.checking63 ], [ %396, %mk.kbody67 ]
  %acc71 = phi <8 x float> [ %368, %mk.checking63 ], [ %404, %mk.kbody67 ]
  %nonfinite72 = phi <8 x i1> [ zeroinitializer, %mk.checking63 ], [ %388, %mk.kbody67 ]
  %379 = icmp slt i64 %k69, 16
  br i1 %379, label %mk.kbody67, label %mk.kdone68

mk.kbody67:                                       ; preds = %mk.k66
  %380 = mul i64 %k69, 16
  %381 = add i64 %380, 8
  %382 = add i64 0, %381
  %383 = getelementptr float, ptr %mma.b, i64 %382
  %384 = load <8 x float>, ptr %383, align 4
  %385 = bitcast <8 x float> %384 to <8 x i32>
  %386 = and <8 x i32> %385, splat (i32 2139095040)
  %387 = icmp eq <8 x i32> %386, splat (i32 2139095040)
  %388 = or <8 x i1> %nonfinite72, %387
  %389 = add i64 %351, 0
  %390 = mul i64 %389, 16
  %391 = add i64 %390, %k69
  %392 = getelementptr float, ptr %mma.a, i64 %391
  %393 = load float, ptr %392, align 4
  %394 = insertelement <8 x float> poison, float %393, i32 0
  %395 = shufflevector <8 x float> %394, <8 x float> poison, <8 x i32> zeroinitializer
  %396 = call <8 x float> @llvm.fma.v8f32(<8 x float> %395, <8 x float> %384, <8 x float> %acc70)
  %397 = add i64 %351, 1
  %398 = mul i64 %397, 16
  %399 = add i64 %398, %k69
  %400 = getelementptr float, ptr %mma.a, i64 %399
  %401 = load float, ptr %400, align 4
  %402 = insertelement <8 x float> poison, float %401, i32 0
  %403 = shufflevector <8 x float> %402, <8 x float> poison, <8 x i32> zeroinitializer
  %404 = call <8 x float> @llvm.fma.v8f32(<8 x float> %403, <8 x float> %384, <8 x float> %acc71)
  %405 = add i64 %k69, 1
  br label %mk.k66

mk.kdone68:                                       ; preds = %mk.k66
  %406 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite72)
  %407 = load i32, ptr %mk.bbad, align 4
  %408 = zext i1 %406 to i32
  %409 = or i32 %407, %408
  store i32 %409, ptr %mk.bbad, align 4
  %410 = add i64 %351, 0
  %411 = mul i64 %410, 16
  %412 = add i64 %411, 8
  %413 = getelementptr float, ptr %acc, i64 %412
  store <8 x float> %acc70, ptr %413, align 4
  %414 = add i64 %351, 1
  %415 = mul i64 %414, 16
  %416 = add i64 %415, 8
  %417 = getelementptr float, ptr %acc, i64 %416
  store <8 x float> %acc71, ptr %417, align 4
  br label %mk.blockdone65

mk.k73:                                           ; preds = %mk.kbody74, %mk.plain64
  %k76 = phi i64 [ 0, %mk.plain64 ], [ %440, %mk.kbody74 ]
  %acc77 = phi <8 x float> [ %373, %mk.plain64 ], [ %431, %mk.kbody74 ]
  %acc78 = phi <8 x float> [ %378, %mk.plain64 ], [ %439, %mk.kbody74 ]
  %418 = icmp slt i64 %k76, 16
  br i1 %418, label %mk.kbody74, label %mk.kdone75

mk.kbody74:                                       ; preds = %mk.k73
  %419 = mul i64 %k76, 16
  %420 = add i64 %419, 8
  %421 = add i64 0, %420
  %422 = getelementptr float, ptr %mma.b, i64 %421
  %423 = load <8 x float>, ptr %422, align 4
  %424 = add i64 %351, 0
  %425 = mul i64 %424, 16
  %426 = add i64 %425, %k76
  %427 = getelementptr float, ptr %mma.a, i64 %426
  %428 = load float, ptr %427, align 4
  %429 = insertelement <8 x float> poison, float %428, i32 0
  %430 = shufflevector <8 x float> %429, <8 x float> poison, <8 x i32> zeroinitializer
  %431 = call <8 x float> @llvm.fma.v8f32(<8 x float> %430, <8 x float> %423, <8 x float> %acc77)
  %432 = add i64 %351, 1
  %433 = mul i64 %432, 16
  %434 = add i64 %433, %k76
  %435 = getelementptr float, ptr %mma.a, i64 %434
  %436 = load float, ptr %435, align 4
  %437 = insertelement <8 x float> poison, float %436, i32 0
  %438 = shufflevector <8 x float> %437, <8 x float> poison, <8 x i32> zeroinitializer
  %439 = call <8 x float> @llvm.fma.v8f32(<8 x float> %438, <8 x float> %423, <8 x float> %acc78)
  %440 = add i64 %k76, 1
  br label %mk.k73

mk.kdone75:                                       ; preds = %mk.k73
  %441 = add i64 %351, 0
  %442 = mul i64 %441, 16
  %443 = add i64 %442, 8
  %444 = getelementptr float, ptr %acc, i64 %443
  store <8 x float> %acc77, ptr %444, align 4
  %445 = add i64 %351, 1
  %446 = mul i64 %445, 16
  %447 = add i64 %446, 8
  %448 = getelementptr float, ptr %acc, i64 %447
  store <8 x float> %acc78, ptr %448, align 4
  br label %mk.blockdone65

gl.inside79:                                      ; preds = %mk.done47
  %449 = mul i64 0, %223
  %450 = add i64 %449, %233
  br label %in.row82

gl.edge80:                                        ; preds = %mk.done47
  br label %gl.row90

gl.done81:                                        ; preds = %done92, %done84
  ret void

in.row82:                                         ; preds = %done88, %gl.inside79
  %i85 = phi i64 [ 0, %gl.inside79 ], [ %463, %done88 ]
  %451 = icmp slt i64 %i85, 16
  br i1 %451, label %body83, label %done84

body83:                                           ; preds = %in.row82
  %452 = add i64 %450, %i85
  %453 = mul i64 %452, %227
  %454 = add i64 %453, %239
  br label %in.col86

done84:                                           ; preds = %in.row82
  br label %gl.done81

in.col86:                                         ; preds = %body87, %body83
  %i89 = phi i64 [ 0, %body83 ], [ %462, %body87 ]
  %455 = icmp slt i64 %i89, 16
  br i1 %455, label %body87, label %done88

body87:                                           ; preds = %in.col86
  %456 = mul i64 %i85, 16
  %457 = add i64 %456, %i89
  %458 = add i64 %454, %i89
  %459 = getelementptr float, ptr %acc, i64 %457
  %460 = load float, ptr %459, align 4
  %461 = getelementptr float, ptr %C, i64 %458
  store float %460, ptr %461, align 4
  %462 = add i64 %i89, 1
  br label %in.col86

done88:                                           ; preds = %in.col86
  %463 = add i64 %i85, 1
  br label %in.row82

gl.row90:                                         ; preds = %done96, %gl.edge80
  %i93 = phi i64 [ 0, %gl.edge80 ], [ %491, %done96 ]
  %464 = icmp slt i64 %i93, 16
  br i1 %464, label %body91, label %done92

body91:                                           ; preds = %gl.row90
  %465 = add i64 %233, %i93
  %466 = icmp slt i64 %465, %223
  %467 = icmp sge i64 %465, 0
  %468 = and i1 %467, %466
  %469 = and i1 true, %468
  %470 = mul i64 0, %223
  %471 = add i64 %470, %465
  %472 = mul i64 %471, %227
  %473 = sub i64 0, %239
  %474 = icmp sgt i64 %473, 0
  %475 = select i1 %474, i64 %473, i64 0
  %476 = sub i64 %227, %239
  %477 = icmp slt i64 %476, 16
  %478 = select i1 %477, i64 %476, i64 16
  %479 = select i1 %469, i64 %478, i64 0
  %480 = sub i64 %479, %475
  br label %gl.col94

done92:                                           ; preds = %gl.row90
  br label %gl.done81

gl.col94:                                         ; preds = %body95, %body91
  %i97 = phi i64 [ 0, %body91 ], [ %490, %body95 ]
  %481 = icmp slt i64 %i97, %480
  br i1 %481, label %body95, label %done96

body95:                                           ; preds = %gl.col94
  %482 = add i64 %i97, %475
  %483 = mul i64 %i93, 16
  %484 = add i64 %483, %482
  %485 = add i64 %239, %482
  %486 = add i64 %472, %485
  %487 = getelementptr float, ptr %acc, i64 %484
  %488 = load float, ptr %487, align 4
  %489 = getelementptr float, ptr %C, i64 %486
  store float %488, ptr %489, align 4
  %490 = add i64 %i97, 1
  br label %gl.col94

done96:                                           ; preds = %gl.col94
  %491 = add i64 %i93, 1
  br label %gl.row90
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.vector.reduce.or.v8i1(<8 x i1>) #2

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
