# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1414,414 font "sans,11" noenhanced
} else {
  set terminal svg size 1414,414 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [1.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("rope (rope-fraction=0.5)" 0, "rope (rope-fraction=0.25)" 1)
# band 1: order .. periodic
unset label
unset arrow
unset object
set lmargin at screen 0.1605374823; set rmargin at screen 0.8797736917; set bmargin at screen 0.3140096618; set tmargin at screen 0.7439613527
set xrange [-0.5:8.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9468599034 center font ",13"
set colorbox user origin screen 0.8939179632, screen 0.3140096618 size screen 0.01697312588, screen 0.4299516908
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.1605374823, screen 0.04830917874 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (8-32)" 0, "2x (64)" 1, "4x (128)" 2, "train (16-64)" 3, "2x (128)" 4, "4x (256)" 5, "train (16-64)" 6, "2x (128)" 7, "4x (256)" 8)
set label 3 "order" at first 1, screen 0.8550724638 center font ",11"
set label 4 "shift" at first 4, screen 0.8550724638 center font ",11"
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "periodic" at first 7, screen 0.8550724638 center font ",11"
set arrow from 5.5, graph 0 to 5.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 6 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "0.783\n[0.72, 0.88]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 8 "✗" at 1.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 9 "0.710\n[0.65, 0.77]" at 2,0 center front textcolor rgb "#111111" font ",10"
set label 10 "✗" at 2.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set label 11 "1.000\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "1.000\n[1.00, 1.00]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 13 "1.000\n[1.00, 1.00]" at 5,0 center front textcolor rgb "#ffffff" font ",10"
set label 14 "0.768\n[0.73, 0.84]" at 6,0 center front textcolor rgb "#ffffff" font ",10"
set label 15 "✗" at 6.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 16 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 7.5,-0.5 to 8.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 17 "not learned" at 8,0 center front textcolor rgb "#111111" font ",10"
set label 18 "0.999\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 19 "0.806\n[0.77, 0.86]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 20 "✗" at 1.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 21 "0.539\n[0.49, 0.59]" at 2,1 center front textcolor rgb "#111111" font ",10"
set label 22 "✗" at 2.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 23 "1.000\n[1.00, 1.00]" at 3,1 center front textcolor rgb "#ffffff" font ",10"
set label 24 "1.000\n[1.00, 1.00]" at 4,1 center front textcolor rgb "#ffffff" font ",10"
set label 25 "0.926\n[0.91, 0.94]" at 5,1 center front textcolor rgb "#ffffff" font ",10"
set label 26 "0.606\n[0.58, 0.66]" at 6,1 center front textcolor rgb "#ffffff" font ",10"
set label 27 "✗" at 6.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 28 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 7.5,0.5 to 8.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 29 "not learned" at 8,1 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
