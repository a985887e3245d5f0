# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1200,415 font "sans,11" noenhanced
} else {
  set terminal svg size 1200,415 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [2.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("xpos" 0, "cope" 1, "rope" 2)
# band 1: shift .. shift
unset label
unset arrow
unset object
set lmargin at screen 0.08333333333; set rmargin at screen 0.8583333333; set bmargin at screen 0.3108433735; set tmargin at screen 0.7445783133
set xrange [-0.5:2.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9469879518 center font ",13"
set colorbox user origin screen 0.875, screen 0.3108433735 size screen 0.02, screen 0.4337349398
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.08333333333, screen 0.04819277108 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (16-64)" 0, "2x (128)" 1, "4x (256)" 2)
set label 3 "shift" at first 1, screen 0.8554216867 center font ",11"
set label 4 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 5 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 6 "1.000\n[1.00, 1.00]" at 2,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 8 "0.982\n[0.96, 0.99]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 9 "0.932\n[0.89, 0.95]" at 2,1 center front textcolor rgb "#ffffff" font ",10"
set label 10 "✗" at 2.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 11 "1.000\n[1.00, 1.00]" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 12 "1.000\n[1.00, 1.00]" at 1,2 center front textcolor rgb "#ffffff" font ",10"
set label 13 "0.911\n[0.88, 0.94]" at 2,2 center front textcolor rgb "#ffffff" font ",10"
set label 14 "✗" at 2.45,1.88 right front textcolor rgb "#D55E00" font ",12"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
