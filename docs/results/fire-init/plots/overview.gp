# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1255,417 font "sans,11" noenhanced
} else {
  set terminal svg size 1255,417 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [3.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("fire (fire-init=torch,fire-threshold=multiplier)" 0, "fire (fire-init=normal,fire-threshold=length)" 1, "fire (fire-init=torch,fire-threshold=length)" 2, "fire (fire-init=normal,fire-threshold=multiplier)" 3)
# band 1: shift .. periodic
unset label
unset arrow
unset object
set lmargin at screen 0.3243027888; set rmargin at screen 0.8645418327; set bmargin at screen 0.3045563549; set tmargin at screen 0.7458033573
set xrange [-0.5:5.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9472422062 center font ",13"
set colorbox user origin screen 0.8804780876, screen 0.3045563549 size screen 0.01912350598, screen 0.4412470024
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.3243027888, screen 0.0479616307 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (16-64)" 0, "2x (128)" 1, "4x (256)" 2, "train (16-64)" 3, "2x (128)" 4, "4x (256)" 5)
set label 3 "shift" at first 1, screen 0.8561151079 center font ",11"
set label 4 "periodic" at first 4, screen 0.8561151079 center font ",11"
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "0.953\n[0.88, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 6 "✗" at 0.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 7 "0.679\n[0.63, 0.71]" at 1,0 center front textcolor rgb "#111111" font ",10"
set label 8 "✗" at 1.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 9 "0.587\n[0.56, 0.60]" at 2,0 center front textcolor rgb "#111111" font ",10"
set label 10 "✗" at 2.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 11 "0.620\n[0.61, 0.64]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "✗" at 3.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 3.5,-0.5 to 4.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 13 "not learned" at 4,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 4.5,-0.5 to 5.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 5,0 center front textcolor rgb "#111111" font ",10"
set label 15 "0.912\n[0.77, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 16 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 17 "0.677\n[0.60, 0.75]" at 1,1 center front textcolor rgb "#111111" font ",10"
set label 18 "✗" at 1.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 19 "0.581\n[0.54, 0.62]" at 2,1 center front textcolor rgb "#111111" font ",10"
set label 20 "✗" at 2.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 21 "0.586\n[0.57, 0.60]" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 22 "✗" at 3.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 3.5,0.5 to 4.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 23 "not learned" at 4,1 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 4.5,0.5 to 5.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 24 "not learned" at 5,1 center front textcolor rgb "#111111" font ",10"
set label 25 "0.930\n[0.79, 1.00]" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 26 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 27 "0.699\n[0.61, 0.76]" at 1,2 center front textcolor rgb "#111111" font ",10"
set label 28 "✗" at 1.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 29 "0.576\n[0.54, 0.63]" at 2,2 center front textcolor rgb "#111111" font ",10"
set label 30 "✗" at 2.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set label 31 "0.606\n[0.59, 0.62]" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 32 "✗" at 3.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 5 rect from 3.5,1.5 to 4.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 33 "not learned" at 4,2 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 34 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set label 35 "0.780\n[0.74, 0.85]" at 0,3 center front textcolor rgb "#ffffff" font ",10"
set label 36 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set label 39 "0.614\n[0.61, 0.62]" at 3,3 center front textcolor rgb "#ffffff" font ",10"
set label 40 "✗" at 3.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 9 rect from 3.5,2.5 to 4.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 41 "not learned" at 4,3 center front textcolor rgb "#111111" font ",10"
set object 10 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
