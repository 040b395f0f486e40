//! A thin progress bar with its label.

use yew::prelude::*;

/// Props of [`ProgressBar`].
#[derive(Properties, PartialEq)]
pub struct ProgressBarProps {
    /// What is being done.
    pub label: String,
    /// 0–1.
    pub fraction: f64,
}

/// Progress of a load (the bar also pulses, since one parse step can take a while).
#[function_component(ProgressBar)]
pub fn progress_bar(props: &ProgressBarProps) -> Html {
    let pct = (props.fraction.clamp(0.0, 1.0) * 100.0).max(4.0);
    html! {
        <div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax="100"
            aria-valuenow={format!("{:.0}", pct)} aria-label={props.label.clone()}>
            <div class="progress-track"><div class="progress-fill" style={format!("width:{pct:.1}%")}></div></div>
            <div class="progress-label">{props.label.clone()}</div>
        </div>
    }
}
