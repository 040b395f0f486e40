//! What the page shows before anything is loaded.

use yew::prelude::*;

use super::Ctx;

/// Props of [`Welcome`].
#[derive(Properties, PartialEq)]
pub struct WelcomeProps {
    /// Something is loading.
    pub busy: bool,
    /// What the URL points at though no runs are loaded (a reload after picking files).
    pub missing: Option<String>,
    /// "load the demo pair" is offered (not in the CLI's pages, whose demo is their own runs).
    pub demo: bool,
}

/// The empty state: how to get dumps, where to drop them.
#[function_component(Welcome)]
pub fn welcome(props: &WelcomeProps) -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx provided by App");
    let demo = Callback::from(move |_| ctx.load_demo());
    html! {
        <div class="welcome">
            if let Some(what) = &props.missing {
                <p class="missing-runs" role="status">{format!(
                    "This address shows {what}, but the two dumps it was made from are not loaded: files \
                     you pick or drop stay in the tab that read them, and a reload forgets them. Drop or \
                     pick the same base and head dumps again and the view comes back (the search, filter, \
                     order and site are kept in the address)."
                )}</p>
            }
            <h1>{"Drop two dumps to see what a change did to CPython's specializations"}</h1>
            <p>{"CPython 3.11+ rewrites hot bytecode into specialized forms at run time (LOAD_ATTR → LOAD_ATTR_SLOT). \
                A refactor can silently lose them. Record a run before and after the change, drop both files here, \
                and specdiff lines up every site."}</p>
            <pre class="cmd">{"specdiff dump -o base.json prog.py      # before the change\nspecdiff dump -o head.json prog.py      # after"}</pre>
            <p>{"Accepted: specdiff dumps (.json, .json.gz) and raw pystats files (.txt; several files make one run). \
                One dump alone shows its coverage. Files are read in this tab only: nothing is uploaded."}</p>
            if props.demo {
                <p><button class="btn primary" onclick={demo} disabled={props.busy}>{"load the demo pair"}</button></p>
            }
        </div>
    }
}
