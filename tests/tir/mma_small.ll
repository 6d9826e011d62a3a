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
  %179 = phi i64 [ 0, %done39 ], [ %204, %mk.done45 ]
  %180 = icmp slt i64 %179, 8
  br i1 %180, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %181 = mul i64 %179, 32
  store i32 0, ptr %mk.orv, align 4
  br label %mk.or

mk.done:                                          ; preds = %mk.zrows
  %182 = load i32, ptr %mk.any, align 4
  %183 = icmp ne i32 %182, 0
  %184 = load i32, ptr %mk.all, align 4
  %185 = icmp ne i32 %184, 0
  store i32 0, ptr %mk.bbad, align 4
  br i1 %183, label %mk.someskip, label %mk.else

mk.or:                                            ; preds = %mk.body44, %mk.body
  %186 = phi i64 [ 0, %mk.body ], [ %194, %mk.body44 ]
  %187 = icmp slt i64 %186, 32
  br i1 %187, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.or
  %188 = add i64 %181, %186
  %189 = getelementptr i32, ptr %mma.a, i64 %188
  %190 = load i32, ptr %189, align 4
  %191 = and i32 %190, 2147483647
  %192 = load i32, ptr %mk.orv, align 4
  %193 = or i32 %192, %191
  store i32 %193, ptr %mk.orv, align 4
  %194 = add i64 %186, 1
  br label %mk.or

mk.done45:                                        ; preds = %mk.or
  %195 = load i32, ptr %mk.orv, align 4
  %196 = icmp eq i32 %195, 0
  %197 = zext i1 %196 to i32
  %198 = getelementptr i8, ptr %mk.skip, i64 %179
  %199 = trunc i32 %197 to i8
  store i8 %199, ptr %198, align 1
  %200 = load i32, ptr %mk.any, align 4
  %201 = or i32 %200, %197
  store i32 %201, ptr %mk.any, align 4
  %202 = load i32, ptr %mk.all, align 4
  %203 = and i32 %202, %197
  store i32 %203, ptr %mk.all, align 4
  %204 = add i64 %179, 1
  br label %mk.zrows

mk.blocksdone:                                    ; preds = %mk.done96, %mk.else62
  %205 = getelementptr i64, ptr %1, i64 0
  %206 = load i64, ptr %205, align 8
  %207 = mul i64 1, %206
  %208 = add i64 0, %207
  %209 = getelementptr i64, ptr %1, i64 2
  %210 = load i64, ptr %209, align 8
  %211 = mul i64 1, %210
  %212 = add i64 0, %211
  %213 = sext i32 %3 to i64
  %214 = icmp slt i64 %213, 1099511627776
  %215 = select i1 %214, i64 %213, i64 1099511627776
  %216 = icmp sgt i64 %215, -1099511627776
  %217 = select i1 %216, i64 %215, i64 -1099511627776
  %218 = mul i64 %217, 16
  %219 = sext i32 %2 to i64
  %220 = icmp slt i64 %219, 1099511627776
  %221 = select i1 %220, i64 %219, i64 1099511627776
  %222 = icmp sgt i64 %221, -1099511627776
  %223 = select i1 %222, i64 %221, i64 -1099511627776
  %224 = mul i64 %223, 16
  %225 = icmp sge i64 %218, 0
  %226 = and i1 true, %225
  %227 = icmp sge i64 %224, 0
  %228 = and i1 %226, %227
  %229 = add i64 %218, 16
  %230 = add i64 %224, 16
  %231 = icmp sle i64 %229, %208
  %232 = and i1 %228, %231
  %233 = icmp sle i64 %230, %212
  %234 = and i1 %232, %233
  br i1 %234, label %gl.inside103, label %gl.edge104

mk.someskip:                                      ; preds = %mk.done
  br label %mk.i

mk.else:                                          ; preds = %mk.done
  br label %mk.i85

mk.i:                                             ; preds = %mk.next, %mk.someskip
  %235 = phi i64 [ 0, %mk.someskip ], [ %251, %mk.next ]
  %236 = icmp slt i64 %235, 16
  br i1 %236, label %mk.body46, label %mk.done47

mk.body46:                                        ; preds = %mk.i
  %237 = sdiv i64 %235, 2
  %238 = getelementptr i8, ptr %mk.skip, i64 %237
  %239 = load i8, ptr %238, align 1
  %240 = icmp eq i8 %239, 0
  br i1 %240, label %mk.work, label %mk.next

mk.done47:                                        ; preds = %mk.i
  br label %mk.i50

mk.work:                                          ; preds = %mk.body46
  %241 = add i64 %235, 0
  %242 = mul i64 %241, 16
  %243 = add i64 %242, 0
  %244 = getelementptr float, ptr %acc, i64 %243
  %245 = load <8 x float>, ptr %244, align 4
  %246 = add i64 %235, 1
  %247 = mul i64 %246, 16
  %248 = add i64 %247, 0
  %249 = getelementptr float, ptr %acc, i64 %248
  %250 = load <8 x float>, ptr %249, align 4
  br label %mk.k

mk.next:                                          ; preds = %mk.kdone, %mk.body46
  %251 = add i64 %235, 2
  br label %mk.i

mk.k:                                             ; preds = %mk.kbody, %mk.work
  %k = phi i64 [ 0, %mk.work ], [ %278, %mk.kbody ]
  %acc48 = phi <8 x float> [ %245, %mk.work ], [ %269, %mk.kbody ]
  %acc49 = phi <8 x float> [ %250, %mk.work ], [ %277, %mk.kbody ]
  %nonfinite = phi <8 x i1> [ zeroinitializer, %mk.work ], [ %261, %mk.kbody ]
  %252 = icmp slt i64 %k, 16
  br i1 %252, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %253 = mul i64 %k, 16
  %254 = add i64 %253, 0
  %255 = add i64 0, %254
  %256 = getelementptr float, ptr %mma.b, i64 %255
  %257 = load <8 x float>, ptr %256, align 4
  %258 = bitcast <8 x float> %257 to <8 x i32>
  %259 = and <8 x i32> %258, splat (i32 2139095040)
  %260 = icmp eq <8 x i32> %259, splat (i32 2139095040)
  %261 = or <8 x i1> %nonfinite, %260
  %262 = add i64 %235, 0
  %263 = mul i64 %262, 16
  %264 = add i64 %263, %k
  %265 = getelementptr float, ptr %mma.a, i64 %264
  %266 = load float, ptr %265, align 4
  %267 = insertelement <8 x float> poison, float %266, i32 0
  %268 = shufflevector <8 x float> %267, <8 x float> poison, <8 x i32> zeroinitializer
  %269 = call <8 x float> @llvm.fma.v8f32(<8 x float> %268, <8 x float> %257, <8 x float> %acc48)
  %270 = add i64 %235, 1
  %271 = mul i64 %270, 16
  %272 = add i64 %271, %k
  %273 = getelementptr float, ptr %mma.a, i64 %272
  %274 = load float, ptr %273, align 4
  %275 = insertelement <8 x float> poison, float %274, i32 0
  %276 = shufflevector <8 x float> %275, <8 x float> poison, <8 x i32> zeroinitializer
  %277 = call <8 x float> @llvm.fma.v8f32(<8 x float> %276, <8 x float> %257, <8 x float> %acc49)
  %278 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %279 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite)
  %280 = load i32, ptr %mk.bbad, align 4
  %281 = zext i1 %279 to i32
  %282 = or i32 %280, %281
  store i32 %282, ptr %mk.bbad, align 4
  %283 = add i64 %235, 0
  %284 = mul i64 %283, 16
  %285 = add i64 %284, 0
  %286 = getelementptr float, ptr %acc, i64 %285
  store <8 x float> %acc48, ptr %286, align 4
  %287 = add i64 %235, 1
  %288 = mul i64 %287, 16
  %289 = add i64 %288, 0
  %290 = getelementptr float, ptr %acc, i64 %289
  store <8 x float> %acc49, ptr %290, align 4
  br label %mk.next

mk.i50:                                           ; preds = %mk.next54, %mk.done47
  %291 = phi i64 [ 0, %mk.done47 ], [ %310, %mk.next54 ]
  %292 = icmp slt i64 %291, 16
  br i1 %292, label %mk.body51, label %mk.done52

mk.body51:                                        ; preds = %mk.i50
  %293 = sdiv i64 %291, 2
  %294 = getelementptr i8, ptr %mk.skip, i64 %293
  %295 = load i8, ptr %294, align 1
  %296 = icmp eq i8 %295, 0
  br i1 %296, label %mk.work53, label %mk.next54

mk.done52:                                        ; preds = %mk.i50
  %297 = load i32, ptr %mk.bbad, align 4
  %298 = icmp ne i32 %297, 0
  %299 = or i1 %185, %298
  br i1 %299, label %mk.redo, label %mk.else62

mk.work53:                                        ; preds = %mk.body51
  %300 = add i64 %291, 0
  %301 = mul i64 %300, 16
  %302 = add i64 %301, 8
  %303 = getelementptr float, ptr %acc, i64 %302
  %304 = load <8 x float>, ptr %303, align 4
  %305 = add i64 %291, 1
  %306 = mul i64 %305, 16
  %307 = add i64 %306, 8
  %308 = getelementptr float, ptr %acc, i64 %307
  %309 = load <8 x float>, ptr %308, align 4
  br label %mk.k55

mk.next54:                                        ; preds = %mk.kdone57, %mk.body51
  %310 = add i64 %291, 2
  br label %mk.i50

mk.k55:                                           ; preds = %mk.kbody56, %mk.work53
  %k58 = phi i64 [ 0, %mk.work53 ], [ %337, %mk.kbody56 ]
  %acc59 = phi <8 x float> [ %304, %mk.work53 ], [ %328, %mk.kbody56 ]
  %acc60 = phi <8 x float> [ %309, %mk.work53 ], [ %336, %mk.kbody56 ]
  %nonfinite61 = phi <8 x i1> [ zeroinitializer, %mk.work53 ], [ %320, %mk.kbody56 ]
  %311 = icmp slt i64 %k58, 16
  br i1 %311, label %mk.kbody56, label %mk.kdone57

mk.kbody56:                                       ; preds = %mk.k55
  %312 = mul i64 %k58, 16
  %313 = add i64 %312, 8
  %314 = add i64 0, %313
  %315 = getelementptr float, ptr %mma.b, i64 %314
  %316 = load <8 x float>, ptr %315, align 4
  %317 = bitcast <8 x float> %316 to <8 x i32>
  %318 = and <8 x i32> %317, splat (i32 2139095040)
  %319 = icmp eq <8 x i32> %318, splat (i32 2139095040)
  %320 = or <8 x i1> %nonfinite61, %319
  %321 = add i64 %291, 0
  %322 = mul i64 %321, 16
  %323 = add i64 %322, %k58
  %324 = getelementptr float, ptr %mma.a, i64 %323
  %325 = load float, ptr %324, align 4
  %326 = insertelement <8 x float> poison, float %325, i32 0
  %327 = shufflevector <8 x float> %326, <8 x float> poison, <8 x i32> zeroinitializer
  %328 = call <8 x float> @llvm.fma.v8f32(<8 x float> %327, <8 x float> %316, <8 x float> %acc59)
  %329 = add i64 %291, 1
  %330 = mul i64 %329, 16
  %331 = add i64 %330, %k58
  %332 = getelementptr float, ptr %mma.a, i64 %331
  %333 = load float, ptr %332, align 4
  %334 = insertelement <8 x float> poison, float %333, i32 0
  %335 = shufflevector <8 x float> %334, <8 x float> poison, <8 x i32> zeroinitializer
  %336 = call <8 x float> @llvm.fma.v8f32(<8 x float> %335, <8 x float> %316, <8 x float> %acc60)
  %337 = add i64 %k58, 1
  br label %mk.k55

mk.kdone57:                                       ; preds = %mk.k55
  %338 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite61)
  %339 = load i32, ptr %mk.bbad, align 4
  %340 = zext i1 %338 to i32
  %341 = or i32 %339, %340
  store i32 %341, ptr %mk.bbad, align 4
  %342 = add i64 %291, 0
  %343 = mul i64 %342, 16
  %344 = add i64 %343, 8
  %345 = getelementptr float, ptr %acc, i64 %344
  store <8 x float> %acc59, ptr %345, align 4
  %346 = add i64 %291, 1
  %347 = mul i64 %346, 16
  %348 = add i64 %347, 8
  %349 = getelementptr float, ptr %acc, i64 %348
  store <8 x float> %acc60, ptr %349, align 4
  br label %mk.next54

mk.redo:                                          ; preds = %mk.done52
  br label %mk.i63

mk.else62:                                        ; preds = %mk.done76, %mk.done52
  br label %mk.blocksdone

mk.i63:                                           ; preds = %mk.next67, %mk.redo
  %350 = phi i64 [ 0, %mk.redo ], [ %366, %mk.next67 ]
  %351 = icmp slt i64 %350, 16
  br i1 %351, label %mk.body64, label %mk.done65

mk.body64:                                        ; preds = %mk.i63
  %352 = sdiv i64 %350, 2
  %353 = getelementptr i8, ptr %mk.skip, i64 %352
  %354 = load i8, ptr %353, align 1
  %355 = icmp eq i8 %354, 1
  br i1 %355, label %mk.work66, label %mk.next67

mk.done65:                                        ; preds = %mk.i63
  br label %mk.i74

mk.work66:                                        ; preds = %mk.body64
  %356 = add i64 %350, 0
  %357 = mul i64 %356, 16
  %358 = add i64 %357, 0
  %359 = getelementptr float, ptr %acc, i64 %358
  %360 = load <8 x float>, ptr %359, align 4
  %361 = add i64 %350, 1
  %362 = mul i64 %361, 16
  %363 = add i64 %362, 0
  %364 = getelementptr float, ptr %acc, i64 %363
  %365 = load <8 x float>, ptr %364, align 4
  br label %mk.k68

mk.next67:                                        ; preds = %mk.kdone70, %mk.body64
  %366 = add i64 %350, 2
  br label %mk.i63

mk.k68:                                           ; preds = %mk.kbody69, %mk.work66
  %k71 = phi i64 [ 0, %mk.work66 ], [ %389, %mk.kbody69 ]
  %acc72 = phi <8 x float> [ %360, %mk.work66 ], [ %380, %mk.kbody69 ]
  %acc73 = phi <8 x float> [ %365, %mk.work66 ], [ %388, %mk.kbody69 ]
  %367 = icmp slt i64 %k71, 16
  br i1 %367, label %mk.kbody69, label %mk.kdone70

mk.kbody69:                                       ; preds = %mk.k68
  %368 = mul i64 %k71, 16
  %369 = add i64 %368, 0
  %370 = add i64 0, %369
  %371 = getelementptr float, ptr %mma.b, i64 %370
  %372 = load <8 x float>, ptr %371, align 4
  %373 = add i64 %350, 0
  %374 = mul i64 %373, 16
  %375 = add i64 %374, %k71
  %376 = getelementptr float, ptr %mma.a, i64 %375
  %377 = load float, ptr %376, align 4
  %378 = insertelement <8 x float> poison, float %377, i32 0
  %379 = shufflevector <8 x float> %378, <8 x float> poison, <8 x i32> zeroinitializer
  %380 = call <8 x float> @llvm.fma.v8f32(<8 x float> %379, <8 x float> %372, <8 x float> %acc72)
  %381 = add i64 %350, 1
  %382 = mul i64 %381, 16
  %383 = add i64 %382, %k71
  %384 = getelementptr float, ptr %mma.a, i64 %383
  %385 = load float, ptr %384, align 4
  %386 = insertelement <8 x float> poison, float %385, i32 0
  %387 = shufflevector <8 x float> %386, <8 x float> poison, <8 x i32> zeroinitializer
  %388 = call <8 x float> @llvm.fma.v8f32(<8 x float> %387, <8 x float> %372, <8 x float> %acc73)
  %389 = add i64 %k71, 1
  br label %mk.k68

mk.kdone70:                                       ; preds = %mk.k68
  %390 = add i64 %350, 0
  %391 = mul i64 %390, 16
  %392 = add i64 %391, 0
  %393 = getelementptr float, ptr %acc, i64 %392
  store <8 x float> %acc72, ptr %393, align 4
  %394 = add i64 %350, 1
  %395 = mul i64 %394, 16
  %396 = add i64 %395, 0
  %397 = getelementptr float, ptr %acc, i64 %396
  store <8 x float> %acc73, ptr %397, align 4
  br label %mk.next67

mk.i74:                                           ; preds = %mk.next78, %mk.done65
  %398 = phi i64 [ 0, %mk.done65 ], [ %414, %mk.next78 ]
  %399 = icmp slt i64 %398, 16
  br i1 %399, label %mk.body75, label %mk.done76

mk.body75:                                        ; preds = %mk.i74
  %400 = sdiv i64 %398, 2
  %401 = getelementptr i8, ptr %mk.skip, i64 %400
  %402 = load i8, ptr %401, align 1
  %403 = icmp eq i8 %402, 1
  br i1 %403, label %mk.work77, label %mk.next78

mk.done76:                                        ; preds = %mk.i74
  br label %mk.else62

mk.work77:                                        ; preds = %mk.body75
  %404 = add i64 %398, 0
  %405 = mul i64 %404, 16
  %406 = add i64 %405, 8
  %407 = getelementptr float, ptr %acc, i64 %406
  %408 = load <8 x float>, ptr %407, align 4
  %409 = add i64 %398, 1
  %410 = mul i64 %409, 16
  %411 = add i64 %410, 8
  %412 = getelementptr float, ptr %acc, i64 %411
  %413 = load <8 x float>, ptr %412, align 4
  br label %mk.k79

mk.next78:                                        ; preds = %mk.kdone81, %mk.body75
  %414 = add i64 %398, 2
  br label %mk.i74

mk.k79:                                           ; preds = %mk.kbody80, %mk.work77
  %k82 = phi i64 [ 0, %mk.work77 ], [ %437, %mk.kbody80 ]
  %acc83 = phi <8 x float> [ %408, %mk.work77 ], [ %428, %mk.kbody80 ]
  %acc84 = phi <8 x float> [ %413, %mk.work77 ], [ %436, %mk.kbody80 ]
  %415 = icmp slt i64 %k82, 16
  br i1 %415, label %mk.kbody80, label %mk.kdone81

mk.kbody80:                                       ; preds = %mk.k79
  %416 = mul i64 %k82, 16
  %417 = add i64 %416, 8
  %418 = add i64 0, %417
  %419 = getelementptr float, ptr %mma.b, i64 %418
  %420 = load <8 x float>, ptr %419, align 4
  %421 = add i64 %398, 0
  %422 = mul i64 %421, 16
  %423 = add i64 %422, %k82
  %424 = getelementptr float, ptr %mma.a, i64 %423
  %425 = load float, ptr %424, align 4
  %426 = insertelement <8 x float> poison, float %425, i32 0
  %427 = shufflevector <8 x float> %426, <8 x float> poison, <8 x i32> zeroinitializer
  %428 = call <8 x float> @llvm.fma.v8f32(<8 x float> %427, <8 x float> %420, <8 x float> %acc83)
  %429 = add i64 %398, 1
  %430 = mul i64 %429, 16
  %431 = add i64 %430, %k82
  %432 = getelementptr float, ptr %mma.a, i64 %431
  %433 = load float, ptr %432, align 4
  %434 = insertelement <8 x float> poison, float %433, i32 0
  %435 = shufflevector <8 x float> %434, <8 x float> poison, <8 x i32> zeroinitializer
  %436 = call <8 x float> @llvm.fma.v8f32(<8 x float> %435, <8 x float> %420, <8 x float> %acc84)
  %437 = add i64 %k82, 1
  br label %mk.k79

mk.kdone81:                                       ; preds = %mk.k79
  %438 = add i64 %398, 0
  %439 = mul i64 %438, 16
  %440 = add i64 %439, 8
  %441 = getelementptr float, ptr %acc, i64 %440
  store <8 x float> %acc83, ptr %441, align 4
  %442 = add i64 %398, 1
  %443 = mul i64 %442, 16
  %444 = add i64 %443, 8
  %445 = getelementptr float, ptr %acc, i64 %444
  store <8 x float> %acc84, ptr %445, align 4
  br label %mk.next78

mk.i85:                                           ; preds = %mk.kdone90, %mk.else
  %446 = phi i64 [ 0, %mk.else ], [ %489, %mk.kdone90 ]
  %447 = icmp slt i64 %446, 16
  br i1 %447, label %mk.body86, label %mk.done87

mk.body86:                                        ; preds = %mk.i85
  %448 = add i64 %446, 0
  %449 = mul i64 %448, 16
  %450 = add i64 %449, 0
  %451 = getelementptr float, ptr %acc, i64 %450
  %452 = load <8 x float>, ptr %451, align 4
  %453 = add i64 %446, 1
  %454 = mul i64 %453, 16
  %455 = add i64 %454, 0
  %456 = getelementptr float, ptr %acc, i64 %455
  %457 = load <8 x float>, ptr %456, align 4
  br label %mk.k88

mk.done87:                                        ; preds = %mk.i85
  br label %mk.i94

mk.k88:                                           ; preds = %mk.kbody89, %mk.body86
  %k91 = phi i64 [ 0, %mk.body86 ], [ %480, %mk.kbody89 ]
  %acc92 = phi <8 x float> [ %452, %mk.body86 ], [ %471, %mk.kbody89 ]
  %acc93 = phi <8 x float> [ %457, %mk.body86 ], [ %479, %mk.kbody89 ]
  %458 = icmp slt i64 %k91, 16
  br i1 %458, label %mk.kbody89, label %mk.kdone90

mk.kbody89:                                       ; preds = %mk.k88
  %459 = mul i64 %k91, 16
  %460 = add i64 %459, 0
  %461 = add i64 0, %460
  %462 = getelementptr float, ptr %mma.b, i64 %461
  %463 = load <8 x float>, ptr %462, align 4
  %464 = add i64 %446, 0
  %465 = mul i64 %464, 16
  %466 = add i64 %465, %k91
  %467 = getelementptr float, ptr %mma.a, i64 %466
  %468 = load float, ptr %467, align 4
  %469 = insertelement <8 x float> poison, float %468, i32 0
  %470 = shufflevector <8 x float> %469, <8 x float> poison, <8 x i32> zeroinitializer
  %471 = call <8 x float> @llvm.fma.v8f32(<8 x float> %470, <8 x float> %463, <8 x float> %acc92)
  %472 = add i64 %446, 1
  %473 = mul i64 %472, 16
  %474 = add i64 %473, %k91
  %475 = getelementptr float, ptr %mma.a, i64 %474
  %476 = load float, ptr %475, align 4
  %477 = insertelement <8 x float> poison, float %476, i32 0
  %478 = shufflevector <8 x float> %477, <8 x float> poison, <8 x i32> zeroinitializer
  %479 = call <8 x float> @llvm.fma.v8f32(<8 x float> %478, <8 x float> %463, <8 x float> %acc93)
  %480 = add i64 %k91, 1
  br label %mk.k88

mk.kdone90:                                       ; preds = %mk.k88
  %481 = add i64 %446, 0
  %482 = mul i64 %481, 16
  %483 = add i64 %482, 0
  %484 = getelementptr float, ptr %acc, i64 %483
  store <8 x float> %acc92, ptr %484, align 4
  %485 = add i64 %446, 1
  %486 = mul i64 %485, 16
  %487 = add i64 %486, 0
  %488 = getelementptr float, ptr %acc, i64 %487
  store <8 x float> %acc93, ptr %488, align 4
  %489 = add i64 %446, 2
  br label %mk.i85

mk.i94:                                           ; preds = %mk.kdone99, %mk.done87
  %490 = phi i64 [ 0, %mk.done87 ], [ %533, %mk.kdone99 ]
  %491 = icmp slt i64 %490, 16
  br i1 %491, label %mk.body95, label %mk.done96

mk.body95:                                        ; preds = %mk.i94
  %492 = add i64 %490, 0
  %493 = mul i64 %492, 16
  %494 = add i64 %493, 8
  %495 = getelementptr float, ptr %acc, i64 %494
  %496 = load <8 x float>, ptr %495, align 4
  %497 = add i64 %490, 1
  %498 = mul i64 %497, 16
  %499 = add i64 %498, 8
  %500 = getelementptr float, ptr %acc, i64 %499
  %501 = load <8 x float>, ptr %500, align 4
  br label %mk.k97

mk.done96:                                        ; preds = %mk.i94
  br label %mk.blocksdone

mk.k97:                                           ; preds = %mk.kbody98, %mk.body95
  %k100 = phi i64 [ 0, %mk.body95 ], [ %524, %mk.kbody98 ]
  %acc101 = phi <8 x float> [ %496, %mk.body95 ], [ %515, %mk.kbody98 ]
  %acc102 = phi <8 x float> [ %501, %mk.body95 ], [ %523, %mk.kbody98 ]
  %502 = icmp slt i64 %k100, 16
  br i1 %502, label %mk.kbody98, label %mk.kdone99

mk.kbody98:                                       ; preds = %mk.k97
  %503 = mul i64 %k100, 16
  %504 = add i64 %503, 8
  %505 = add i64 0, %504
  %506 = getelementptr float, ptr %mma.b, i64 %505
  %507 = load <8 x float>, ptr %506, align 4
  %508 = add i64 %490, 0
  %509 = mul i64 %508, 16
  %510 = add i64 %509, %k100
  %511 = getelementptr float, ptr %mma.a, i64 %510
  %512 = load float, ptr %511, align 4
  %513 = insertelement <8 x float> poison, float %512, i32 0
  %514 = shufflevector <8 x float> %513, <8 x float> poison, <8 x i32> zeroinitializer
  %515 = call <8 x float> @llvm.fma.v8f32(<8 x float> %514, <8 x float> %507, <8 x float> %acc101)
  %516 = add i64 %490, 1
  %517 = mul i64 %516, 16
  %518 = add i64 %517, %k100
  %519 = getelementptr float, ptr %mma.a, i64 %518
  %520 = load float, ptr %519, align 4
  %521 = insertelement <8 x float> poison, float %520, i32 0
  %522 = shufflevector <8 x float> %521, <8 x float> poison, <8 x i32> zeroinitializer
  %523 = call <8 x float> @llvm.fma.v8f32(<8 x float> %522, <8 x float> %507, <8 x float> %acc102)
  %524 = add i64 %k100, 1
  br label %mk.k97

mk.kdone99:                                       ; preds = %mk.k97
  %525 = add i64 %490, 0
  %526 = mul i64 %525, 16
  %527 = add i64 %526, 8
  %528 = getelementptr float, ptr %acc, i64 %527
  store <8 x float> %acc101, ptr %528, align 4
  %529 = add i64 %490, 1
  %530 = mul i64 %529, 16
  %531 = add i64 %530, 8
  %532 = getelementptr float, ptr %acc, i64 %531
  store <8 x float> %acc102, ptr %532, align 4
  %533 = add i64 %490, 2
  br label %mk.i94

gl.inside103:                                     ; preds = %mk.blocksdone
  %534 = mul i64 0, %208
  %535 = add i64 %534, %218
  br label %in.row106

gl.edge104:                                       ; preds = %mk.blocksdone
  br label %gl.row114

gl.done105:                                       ; preds = %done116, %done108
  ret void

in.row106:                                        ; preds = %done112, %gl.inside103
  %i109 = phi i64 [ 0, %gl.inside103 ], [ %548, %done112 ]
  %536 = icmp slt i64 %i109, 16
  br i1 %536, label %body107, label %done108

body107:                                          ; preds = %in.row106
  %537 = add i64 %535, %i109
  %538 = mul i64 %537, %212
  %539 = add i64 %538, %224
  br label %in.col110

done108:                                          ; preds = %in.row106
  br label %gl.done105

in.col110:                                        ; preds = %body111, %body107
  %i113 = phi i64 [ 0, %body107 ], [ %547, %body111 ]
  %540 = icmp slt i64 %i113, 16
  br i1 %540, label %body111, label %done112

body111:                                          ; preds = %in.col110
  %541 = mul i64 %i109, 16
  %542 = add i64 %541, %i113
  %543 = add i64 %539, %i113
  %544 = getelementptr float, ptr %acc, i64 %542
  %545 = load float, ptr %544, align 4
  %546 = getelementptr float, ptr %C, i64 %543
  store float %545, ptr %546, align 4
  %547 = add i64 %i113, 1
  br label %in.col110

done112:                                          ; preds = %in.col110
  %548 = add i64 %i109, 1
  br label %in.row106

gl.row114:                                        ; preds = %done120, %gl.edge104
  %i117 = phi i64 [ 0, %gl.edge104 ], [ %576, %done120 ]
  %549 = icmp slt i64 %i117, 16
  br i1 %549, label %body115, label %done116

body115:                                          ; preds = %gl.row114
  %550 = add i64 %218, %i117
  %551 = icmp slt i64 %550, %208
  %552 = icmp sge i64 %550, 0
  %553 = and i1 %552, %551
  %554 = and i1 true, %553
  %555 = mul i64 0, %208
  %556 = add i64 %555, %550
  %557 = mul i64 %556, %212
  %558 = sub i64 0, %224
  %559 = icmp sgt i64 %558, 0
  %560 = select i1 %559, i64 %558, i64 0
  %561 = sub i64 %212, %224
  %562 = icmp slt i64 %561, 16
  %563 = select i1 %562, i64 %561, i64 16
  %564 = select i1 %554, i64 %563, i64 0
  %565 = sub i64 %564, %560
  br label %gl.col118

done116:                                          ; preds = %gl.row114
  br label %gl.done105

gl.col118:                                        ; preds = %body119, %body115
  %i121 = phi i64 [ 0, %body115 ], [ %575, %body119 ]
  %566 = icmp slt i64 %i121, %565
  br i1 %566, label %body119, label %done120

body119:                                          ; preds = %gl.col118
  %567 = add i64 %i121, %560
  %568 = mul i64 %i117, 16
  %569 = add i64 %568, %567
  %570 = add i64 %224, %567
  %571 = add i64 %557, %570
  %572 = getelementptr float, ptr %acc, i64 %569
  %573 = load float, ptr %572, align 4
  %574 = getelementptr float, ptr %C, i64 %571
  store float %573, ptr %574, align 4
  %575 = add i64 %i121, 1
  br label %gl.col118

done120:                                          ; preds = %gl.col118
  %576 = add i64 %i117, 1
  br label %gl.row114
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
