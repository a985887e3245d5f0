# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1198,414 font "sans,11" noenhanced
} else {
  set terminal svg size 1198,414 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [0.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("none" 0)
# band 1: unique_sort .. unique_sort
unset label
unset arrow
unset object
set lmargin at screen 0.08347245409; set rmargin at screen 0.858096828; set bmargin at screen 0.3140096618; set tmargin at screen 0.7439613527
set xrange [-0.5:3.5]
set label 1 "Overview: final accuracy, mean over 6 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9468599034 center font ",13"
set colorbox user origin screen 0.8747913189, screen 0.3140096618 size screen 0.02003338898, screen 0.4299516908
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.08347245409, screen 0.04830917874 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (1-50)" 0, "51" 1, "3x (150)" 2, "mean 51-150 (100 lengths)" 3)
set label 3 "unique_sort" at first 1.5, screen 0.8550724638 center font ",11"
set label 4 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 5 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 6 "0.997\n[0.99, 1.00]" at 2,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "0.999\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
